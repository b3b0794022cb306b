import { DateTime, Effect, Layer, Option } from "effect"
import { matchesFilters } from "../FilterMatch.ts"
import { sameRecord } from "../Lifecycle.ts"
import { effectiveStatus, isOpen } from "../Open.ts"
import { spellingCandidates, TenderStore } from "../ports/TenderStore.ts"
import { bestCorrection } from "../Spelling.ts"
import type { SearchQuery } from "../Search.ts"
import type { TenderRecord } from "../Tender.ts"
import { formatUtc } from "../Time.ts"
import { MemoryDb, type MemoryState, nextSeq } from "./MemoryDb.ts"
import { SearchTextSimple, trigramSimilarity } from "./memoryText.ts"
import {
  deadlineOrder,
  hasEveryClause,
  matchesWhole,
  rankOrder,
  relevance,
  SearchText,
  weighClauses
} from "../TextQuery.ts"

/**
 * Open tenders passing the filters with their relevance, in the store's order: best first, then nearest deadline,
 * then id. With `every`, only those having every clause of the text (what `count` and alerts use); else those
 * having any (the search's candidates).
 */
const ranked = (db: MemoryState, text: SearchText["Service"], query: SearchQuery, every: boolean) => {
  const prepared = { id: "search", query: { ...query, text: { ...query.text, clauses: [] } } }
  const clauses = query.text.clauses
  const analysed = [...db.tenders.values()].map((record) => ({ record, terms: text.documentTerms(record) }))
  // Each clause weighed by how many tenders have it, as the SQL store weighs it from its statistics.
  const weighed = weighClauses(
    query.text,
    (clause) => analysed.filter(({ terms }) => hasEveryClause([clause], terms)).length,
    analysed.length
  )
  return analysed
    .flatMap(({ record, terms }) => {
      if (!matchesFilters(prepared, { record, lexemes: new Set(terms.keys()) }, query.now)) return []
      const complete = hasEveryClause(clauses, terms)
      const score = relevance(weighed, terms)
      if (clauses.length > 0 && !complete && (every || score === 0)) return []
      return [{ record, score, complete, whole: matchesWhole(clauses, terms) }]
    })
    .toSorted(rankOrder((a, b) => deadlineOrder(a.record, b.record)))
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
    const text = yield* SearchText
    return TenderStore.of({
      upsert: (records) => Effect.map(DateTime.now, (now) => writeRecords(db, records, now)),
      search: (query) =>
        Effect.sync(() => {
          const found = ranked(db, text, query, false).slice(0, query.limit)
          return {
            tenders: found.map((f) => f.record),
            approximate: found.some((f) => !f.complete)
          }
        }),
      count: (query) => Effect.sync(() => ranked(db, text, query, true).length),
      spellings: (questions) =>
        Effect.map(DateTime.now, (now) => {
          const open = [...db.tenders.values()].filter((record) => isOpen(record, now))
          const known = new Set(open.flatMap((record) => [...text.documentTerms(record).keys()]))
          const frequency = new Map<string, number>()
          for (const record of db.tenders.values())
            for (const word of text.documentWords(record)) frequency.set(word, (frequency.get(word) ?? 0) + 1)
          const found = new Map<string, string>()
          for (const question of questions) {
            if (question.forms.some((form) => known.has(form))) continue
            const candidates = [...frequency]
              .map(([word, tenders]) => ({
                word,
                similarity: trigramSimilarity(word, question.lookup),
                frequency: tenders
              }))
              .filter((candidate) => candidate.similarity >= spellingCandidates.minSimilarity)
              .toSorted((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : 1))
              .slice(0, spellingCandidates.count)
            const best = bestCorrection(question.lookup, candidates)
            if (best !== undefined) found.set(question.text, best)
          }
          return found
        }),
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
export const TenderStoreMemory = TenderStoreOnMemory.pipe(Layer.provide([MemoryDb.layer, SearchTextSimple]))
