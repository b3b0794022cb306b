import { BigDecimal, DateTime, Option } from "effect"
import { cpvPrefixesOf, type Filters, normalizeCpvPrefix } from "./Filters.ts"
import { parseDecimal } from "./Money.ts"
import { boundsPerCurrency, type RatesTable } from "./Rates.ts"
import type { TenderRecord } from "./Tender.ts"
import { isOpen } from "./TenderView.ts"
import { parseInstant } from "./Time.ts"

/** One word of a watchlist's `q`, as the lexemes the store's text search would match it with. */
export interface MatchToken {
  /** Stemmed forms (any one must be a lexeme of the tender). */
  readonly exact: ReadonlyArray<string>
  /** Prefix forms for Armenian words and codes; a lexeme starting with one of them matches. */
  readonly prefix: ReadonlyArray<string>
}

/** A tender as the matcher sees it: its text lexemes and the fields the filters read. */
export interface TenderFacts {
  readonly record: TenderRecord
  readonly lexemes: ReadonlySet<string>
}

/** A watchlist prepared for matching many tenders: tokens resolved once, budget bounds per currency. */
export interface PreparedWatchlist {
  readonly id: string
  readonly tokens: ReadonlyArray<MatchToken>
  readonly countries: ReadonlySet<string>
  readonly cpvPrefixes: ReadonlyArray<string>
  readonly bounds:
    | ReadonlyMap<string, { readonly min: BigDecimal.BigDecimal | null; readonly max: BigDecimal.BigDecimal | null }>
    | "own"
    | undefined
  readonly own: { readonly min: BigDecimal.BigDecimal | null; readonly max: BigDecimal.BigDecimal | null }
  readonly deadlineAfter: number | undefined
}

const dec = (s: string | null) => (s === null ? null : Option.getOrNull(parseDecimal(s)))
const num = (n: number | undefined) => (n === undefined ? null : Option.getOrNull(parseDecimal(String(n))))

/** Prepares a watchlist's filters (tokens already resolved to lexemes by the store). */
export const prepareWatchlist = (
  id: string,
  filters: Filters,
  tokens: ReadonlyArray<MatchToken>,
  rates: RatesTable
): PreparedWatchlist => {
  const ranged = filters.minBudget !== undefined || filters.maxBudget !== undefined
  const bounds =
    filters.budgetCurrency !== undefined
      ? new Map(
          boundsPerCurrency(rates, filters.budgetCurrency, filters.minBudget, filters.maxBudget).map((b) => [
            b.currency,
            { min: dec(b.min), max: dec(b.max) }
          ])
        )
      : ranged
        ? ("own" as const)
        : undefined
  return {
    id,
    tokens,
    countries: new Set((filters.countries ?? []).map((c) => c.toUpperCase())),
    cpvPrefixes: (filters.cpv ?? []).map(normalizeCpvPrefix),
    bounds,
    own: { min: num(filters.minBudget), max: num(filters.maxBudget) },
    deadlineAfter:
      filters.deadlineAfter === undefined
        ? undefined
        : Option.match(parseInstant(filters.deadlineAfter), { onNone: () => undefined, onSome: DateTime.toEpochMillis })
  }
}

const within = (
  value: BigDecimal.BigDecimal,
  range: { readonly min: BigDecimal.BigDecimal | null; readonly max: BigDecimal.BigDecimal | null }
) =>
  (range.min === null || BigDecimal.isGreaterThanOrEqualTo(value, range.min)) &&
  (range.max === null || BigDecimal.isLessThanOrEqualTo(value, range.max))

const hasToken = (token: MatchToken, lexemes: ReadonlySet<string>) =>
  token.exact.some((l) => lexemes.has(l)) ||
  (token.prefix.length > 0 && [...lexemes].some((l) => token.prefix.some((p) => l.startsWith(p))))

/** What the filters read from a tender, computed once per tender rather than once per watchlist. */
interface TenderView {
  readonly facts: TenderFacts
  readonly deadlineMs: number | null
  readonly budget: BigDecimal.BigDecimal | null
  cpvPrefixes: ReadonlySet<string> | undefined
}

const viewOf = (facts: TenderFacts): TenderView => ({
  facts,
  deadlineMs:
    facts.record.deadline === null ? null : DateTime.toEpochMillis(DateTime.makeUnsafe(facts.record.deadline)),
  budget: dec(facts.record.budget),
  cpvPrefixes: undefined
})

const cpvOf = (view: TenderView): ReadonlySet<string> => {
  if (view.cpvPrefixes === undefined) {
    const r = view.facts.record
    view.cpvPrefixes = new Set([...r.cpvCodes, ...r.lots.flatMap((l) => l.cpvCodes)].flatMap(cpvPrefixesOf))
  }
  return view.cpvPrefixes
}

const matchesView = (w: PreparedWatchlist, view: TenderView): boolean => {
  const r = view.facts.record
  if (w.countries.size > 0 && (r.country === null || !w.countries.has(r.country))) return false
  if (w.deadlineAfter !== undefined && (view.deadlineMs === null || view.deadlineMs <= w.deadlineAfter)) return false
  if (w.bounds !== undefined) {
    if (w.bounds === "own") {
      if (view.budget === null || !within(view.budget, w.own)) return false
    } else {
      const range = r.currency === null ? undefined : w.bounds.get(r.currency)
      if (range === undefined) return false
      if ((range.min !== null || range.max !== null) && (view.budget === null || !within(view.budget, range)))
        return false
    }
  }
  if (w.cpvPrefixes.length > 0) {
    const prefixes = cpvOf(view)
    if (!w.cpvPrefixes.some((p) => prefixes.has(p))) return false
  }
  return w.tokens.every((token) => hasToken(token, view.facts.lexemes))
}

/** Whether an open tender matches a watchlist, with the same semantics as search. */
export const matchesWatchlist = (w: PreparedWatchlist, facts: TenderFacts, now: DateTime.Utc): boolean =>
  isOpen(facts.record, now) && matchesView(w, viewOf(facts))

/**
 * An inverted index over prepared watchlists: each is filed under its first word's lexemes (or prefixes),
 * or under "no text"; a tender is checked only against the watchlists filed under one of its lexemes.
 */
export const indexWatchlists = (watchlists: ReadonlyArray<PreparedWatchlist>) => {
  const byLexeme = new Map<string, Array<PreparedWatchlist>>()
  const byPrefix = new Map<string, Array<PreparedWatchlist>>()
  const noText: Array<PreparedWatchlist> = []
  const file = (map: Map<string, Array<PreparedWatchlist>>, key: string, w: PreparedWatchlist) => {
    const list = map.get(key)
    if (list === undefined) map.set(key, [w])
    else list.push(w)
  }
  for (const w of watchlists) {
    const first = w.tokens[0]
    if (first === undefined) noText.push(w)
    else {
      for (const l of first.exact) file(byLexeme, l, w)
      for (const p of first.prefix) file(byPrefix, p, w)
    }
  }
  const maxPrefix = Math.max(0, ...[...byPrefix.keys()].map((k) => k.length))
  return {
    /** The watchlists a tender matches. */
    matching: (facts: TenderFacts, now: DateTime.Utc): ReadonlyArray<PreparedWatchlist> => {
      if (!isOpen(facts.record, now)) return []
      const candidates = new Set<PreparedWatchlist>(noText)
      for (const lexeme of facts.lexemes) {
        for (const w of byLexeme.get(lexeme) ?? []) candidates.add(w)
        for (let n = 1; n <= Math.min(maxPrefix, lexeme.length); n++)
          for (const w of byPrefix.get(lexeme.slice(0, n)) ?? []) candidates.add(w)
      }
      const view = viewOf(facts)
      return [...candidates].filter((w) => matchesView(w, view))
    }
  }
}
