import { DateTime, Effect, Layer, Option } from "effect"
import { matchesFilters } from "../FilterMatch.ts"
import { sameRecord } from "../Lifecycle.ts"
import { effectiveStatus } from "../Open.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import type { SearchQuery } from "../Search.ts"
import type { StoredTender, TenderRecord } from "../Tender.ts"
import { formatUtc } from "../Time.ts"
import { MemoryDb, type MemoryState, nextSeq } from "./MemoryDb.ts"
import { memoryFacts, resolveWords, titleWords } from "./memoryText.ts"

const deadlineOrder = (a: TenderRecord, b: TenderRecord) => {
  const da = a.deadline ?? "9999"
  const db = b.deadline ?? "9999"
  return da < db ? -1 : da > db ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Open tenders matching a search, in the store's order: title matches first, then nearest deadline, then id. */
const matching = (db: MemoryState, query: SearchQuery): ReadonlyArray<StoredTender> => {
  const prepared = { id: "search", query, tokens: resolveWords(query.words) }
  const inTitle = (record: TenderRecord) => {
    const title = titleWords(record)
    return prepared.tokens.every((t) => [...title].some((w) => t.prefix.some((p) => w.startsWith(p))))
  }
  return [...db.tenders.values()]
    .filter((record) => matchesFilters(prepared, memoryFacts(record), query.now))
    .toSorted((a, b) => Number(!inTitle(a)) - Number(!inTitle(b)) || deadlineOrder(a, b))
}

/** Writes records as the store does: changed ones get `updatedAt` and a `new` or `updated` event. */
export const writeRecords = (db: MemoryState, records: ReadonlyArray<TenderRecord>, now: DateTime.Utc) => {
  const counts = { new: 0, updated: 0, unchanged: 0 }
  for (const record of new Map(records.map((r) => [r.id, r])).values()) {
    const before = db.tenders.get(record.id)
    if (before !== undefined && sameRecord(before, record)) {
      counts.unchanged++
      continue
    }
    db.tenders.set(record.id, { ...record, updatedAt: formatUtc(now) })
    db.events.push({ id: nextSeq(db), tenderId: record.id, change: before ? "updated" : "new", createdAt: now })
    counts[before ? "updated" : "new"]++
  }
  counts.unchanged += records.length - new Set(records.map((r) => r.id)).size
  return counts
}

/** TenderStore over the shared in-memory state (search semantics from core's matcher, no stemming). */
export const TenderStoreOnMemory = Layer.effect(
  TenderStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return TenderStore.of({
      upsert: (records) => Effect.map(DateTime.now, (now) => writeRecords(db, records, now)),
      search: (query) =>
        Effect.sync(() => ({ tenders: matching(db, query).slice(0, query.limit), approximate: false })),
      count: (query) => Effect.sync(() => matching(db, query).length),
      get: (id) => Effect.sync(() => Option.fromNullishOr(db.tenders.get(db.aliases.get(id) ?? id))),
      size: Effect.sync(() => db.tenders.size),
      refreshStatistics: Effect.void,
      closeExpired: Effect.map(DateTime.now, (now) => {
        let closed = 0
        for (const record of db.tenders.values()) {
          if (effectiveStatus(record, now) === record.status) continue
          db.tenders.set(record.id, { ...record, status: "closed", updatedAt: formatUtc(now) })
          db.events.push({ id: nextSeq(db), tenderId: record.id, change: "closed", createdAt: now })
          closed++
        }
        return closed
      })
    })
  })
)

/** A TenderStore kept in memory, on its own state. */
export const TenderStoreMemory = TenderStoreOnMemory.pipe(Layer.provide(MemoryDb.layer))
