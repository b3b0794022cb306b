import { DateTime, Effect, Layer } from "effect"
import type { TenderChange } from "../Lifecycle.ts"
import { NoticeStore, type NoticeResolver } from "../ports/NoticeStore.ts"
import type { ParsedNotice } from "../SourceNotice.ts"
import { formatUtc } from "../Time.ts"
import { MemoryDb, type MemoryState, nextSeq } from "./MemoryDb.ts"

const contentKey = (notice: ParsedNotice) => JSON.stringify(notice)

const applyOne = (db: MemoryState, notice: ParsedNotice, resolve: NoticeResolver, now: DateTime.Utc): TenderChange => {
  const procedureKey = `${notice.record.source}|${notice.procedureKey}`
  const procedure = db.procedures.get(procedureKey) ?? new Map<string, ParsedNotice>()
  const key = contentKey(notice)
  if (procedure.has(key)) return "unchanged"
  procedure.set(key, notice)
  db.procedures.set(procedureKey, procedure)
  for (const label of notice.sourceLabels ?? [])
    if (!db.sourceLabels.some((l) => l.code === label.code && l.language === label.language && l.name === label.name))
      db.sourceLabels.push(label)
  const notices = [...procedure.values()]
  const beforeId = db.procedureTenders.get(procedureKey)
  const before = beforeId === undefined ? undefined : db.tenders.get(beforeId)
  const { change, tender } = resolve(notices, before, notice)
  if (tender === undefined) return change
  if (before !== undefined && before.id !== tender.id) {
    db.tenders.delete(before.id)
    for (const [alias, id] of db.aliases) if (id === before.id) db.aliases.set(alias, tender.id)
    db.aliases.set(before.id, tender.id)
    db.events.forEach((event, i) => {
      if (event.tenderId === before.id) db.events[i] = { ...event, tenderId: tender.id }
    })
    for (const alert of db.alerts) if (alert.tenderId === before.id) alert.tenderId = tender.id
  }
  for (const n of notices) if (n.record.id !== tender.id) db.aliases.set(n.record.id, tender.id)
  db.procedureTenders.set(procedureKey, tender.id)
  db.tenders.set(tender.id, { ...tender, updatedAt: formatUtc(now) })
  if (change !== "unchanged") db.events.push({ id: nextSeq(db), tenderId: tender.id, change, createdAt: now })
  return change
}

/** NoticeStore over the shared in-memory state: notices per procedure, tenders, aliases and change events. */
export const NoticeStoreOnMemory = Layer.effect(
  NoticeStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return NoticeStore.of({
      applyNotices: (notices, resolve) =>
        Effect.map(DateTime.now, (now) => notices.map((notice) => applyOne(db, notice, resolve, now))),
      sourceLabels: Effect.sync(() => [...db.sourceLabels]),
      sourceLabelCount: Effect.sync(() => db.sourceLabels.length)
    })
  })
)
