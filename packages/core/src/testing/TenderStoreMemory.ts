import { BigDecimal, DateTime, Effect, Layer, Option, Ref } from "effect"
import { cpvPrefixesOf } from "../Filters.ts"
import { parseDecimal } from "../Money.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import type { SearchQuery } from "../Search.ts"
import type { StoredTender, TenderRecord } from "../Tender.ts"
import { effectiveStatus, isOpen, subjectOf } from "../TenderView.ts"
import { formatUtc } from "../Time.ts"

const words = (record: TenderRecord) =>
  [record.title, subjectOf(record) ?? "", record.buyer ?? "", record.nativeId]
    .join(" ")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []

const within = (amount: string | null, min: string | null, max: string | null) => {
  const value = amount === null ? Option.none() : parseDecimal(amount)
  if (Option.isNone(value)) return false
  const lo = min === null ? Option.none() : parseDecimal(min)
  const hi = max === null ? Option.none() : parseDecimal(max)
  return (
    (Option.isNone(lo) || BigDecimal.isGreaterThanOrEqualTo(value.value, lo.value)) &&
    (Option.isNone(hi) || BigDecimal.isLessThanOrEqualTo(value.value, hi.value))
  )
}

/** In-memory semantics of the store's search, for tests of use cases and handlers (word-prefix text match). */
export const matchesQuery = (record: TenderRecord, query: SearchQuery): boolean => {
  if (!isOpen(record, query.now)) return false
  const recordWords = words(record)
  if (!query.tokens.every((token) => recordWords.some((w) => w.startsWith(token.text)))) return false
  if (query.countries.length > 0 && (record.country === null || !query.countries.includes(record.country))) return false
  if (query.cpvPrefixes.length > 0) {
    const prefixes = new Set([...record.cpvCodes, ...record.lots.flatMap((l) => l.cpvCodes)].flatMap(cpvPrefixesOf))
    if (!query.cpvPrefixes.some((p) => prefixes.has(p))) return false
  }
  if (query.deadlineAfter !== undefined) {
    if (record.deadline === null) return false
    if (DateTime.toEpochMillis(DateTime.makeUnsafe(record.deadline)) <= DateTime.toEpochMillis(query.deadlineAfter))
      return false
  }
  const budget = query.budget
  if (budget?._tag === "Own" && !within(record.budget, budget.min, budget.max)) return false
  if (budget?._tag === "Converted") {
    const bound = budget.bounds.find((b) => b.currency === record.currency)
    if (bound === undefined || record.budget === null) return false
    if ((bound.min !== null || bound.max !== null) && !within(record.budget, bound.min, bound.max)) return false
  }
  return true
}

const titleTier = (record: TenderRecord, query: SearchQuery) => {
  const title = record.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return query.tokens.every((token) => title.some((w) => w.startsWith(token.text))) ? 0 : 1
}

const byDeadline = (a: TenderRecord, b: TenderRecord) =>
  (a.deadline ?? "9999") < (b.deadline ?? "9999")
    ? -1
    : (a.deadline ?? "9999") > (b.deadline ?? "9999")
      ? 1
      : a.id < b.id
        ? -1
        : 1

/** A TenderStore kept in memory. */
export const TenderStoreMemory = Layer.effect(
  TenderStore,
  Effect.gen(function* () {
    const rows = yield* Ref.make(new Map<string, StoredTender>())
    const matching = (query: SearchQuery) =>
      Effect.map(Ref.get(rows), (map) =>
        [...map.values()]
          .filter((r) => matchesQuery(r, query))
          .toSorted((a, b) => titleTier(a, query) - titleTier(b, query) || byDeadline(a, b))
      )
    return TenderStore.of({
      upsert: (records) =>
        Effect.gen(function* () {
          const now = formatUtc(yield* DateTime.now)
          return yield* Ref.modify(rows, (map) => {
            const next = new Map(map)
            let created = 0
            let updated = 0
            let unchanged = 0
            for (const record of records) {
              const existing = next.get(record.id)
              if (existing === undefined) created++
              else if (
                JSON.stringify({ ...existing, updatedAt: undefined }) ===
                JSON.stringify({ ...record, updatedAt: undefined })
              ) {
                unchanged++
                continue
              } else updated++
              next.set(record.id, { ...record, updatedAt: now })
            }
            return [{ new: created, updated, unchanged }, next]
          })
        }),
      search: (query) =>
        Effect.map(matching(query), (list) => ({ tenders: list.slice(0, query.limit), approximate: false })),
      count: (query) => Effect.map(matching(query), (list) => list.length),
      get: (id) => Effect.map(Ref.get(rows), (map) => Option.fromNullishOr(map.get(id))),
      size: Effect.map(Ref.get(rows), (map) => map.size),
      refreshStatistics: Effect.void,
      closeExpired: Effect.gen(function* () {
        const now = yield* DateTime.now
        return yield* Ref.modify(rows, (map) => {
          const next = new Map(map)
          let closed = 0
          for (const [id, record] of map) {
            if (effectiveStatus(record, now) !== record.status) {
              next.set(id, { ...record, status: "closed" })
              closed++
            }
          }
          return [closed, next]
        })
      })
    })
  })
)
