import { BigDecimal, DateTime, Option } from "effect"
import { type AmountRange, type BudgetCondition, type FilterQuery, isBounded } from "./FilterQuery.ts"
import { parseDecimal } from "./Money.ts"
import { isOpen } from "./Open.ts"
import type { TenderRecord } from "./Tender.ts"
import { cpvTerm, hasEveryClause } from "./TextQuery.ts"

/** A tender as the matcher sees it: its record and its index terms (SearchText.documentTerms). */
export interface TenderFacts {
  readonly record: TenderRecord
  readonly lexemes: ReadonlySet<string>
}

/** Filters ready to match many tenders: an id and the normalised query (with its text's plan). */
export interface PreparedFilters {
  readonly id: string
  readonly query: FilterQuery
}

/**
 * What the structured filters read of one tender: computed once for every filter set it is checked against, and
 * what a store's sample of tenders gives to estimate the share of a text's tenders the filters keep.
 */
export interface FilterFacts {
  readonly country: string | null
  readonly currency: string | null
  readonly budget: BigDecimal.BigDecimal | null
  /** The deadline in milliseconds since the epoch. */
  readonly deadline: number | null
  /** Whether the tender is filed under a CPV prefix (its own codes' and those its OKPD2 codes map to). */
  readonly hasCpvPrefix: (prefix: string) => boolean
}

const viewOf = (facts: TenderFacts): FilterFacts => {
  const record = facts.record
  return {
    country: record.country,
    currency: record.currency,
    deadline: record.deadline === null ? null : DateTime.toEpochMillis(DateTime.makeUnsafe(record.deadline)),
    budget: record.budget === null ? null : Option.getOrNull(parseDecimal(record.budget)),
    // A tender's CPV prefixes are terms: its own codes' and those its OKPD2 codes map to (the crosswalk).
    hasCpvPrefix: (prefix) => facts.lexemes.has(cpvTerm(prefix))
  }
}

const within = (value: BigDecimal.BigDecimal | null, range: AmountRange): boolean =>
  value !== null &&
  (range.min === null || BigDecimal.isGreaterThanOrEqualTo(value, range.min)) &&
  (range.max === null || BigDecimal.isLessThanOrEqualTo(value, range.max))

const budgetMatches = (budget: BudgetCondition, facts: FilterFacts): boolean => {
  if (budget._tag === "Own") return within(facts.budget, budget.range)
  const range = facts.currency === null ? undefined : budget.ranges.get(facts.currency)
  return range !== undefined && (!isBounded(range) || within(facts.budget, range))
}

/** Whether a tender of a country passes a country filter (an empty one passes every tender). */
export const passesCountryFilter = (countries: ReadonlyArray<string>, country: string | null): boolean =>
  countries.length === 0 || (country !== null && countries.includes(country))

/** Whether a tender passes a query's structured filters (country, deadline, budget, CPV), its text aside. */
export const passesStructuredFilters = (query: FilterQuery, facts: FilterFacts): boolean => {
  if (!passesCountryFilter(query.countries, facts.country)) return false
  const after = query.deadlineAfter
  if (after !== undefined && (facts.deadline === null || facts.deadline <= DateTime.toEpochMillis(after))) return false
  if (query.budget !== undefined && !budgetMatches(query.budget, facts)) return false
  return query.cpvPrefixes.length === 0 || query.cpvPrefixes.some(facts.hasCpvPrefix)
}

const matchesView = (prepared: PreparedFilters, facts: TenderFacts, view: FilterFacts): boolean =>
  passesStructuredFilters(prepared.query, view) && hasEveryClause(prepared.query.text.clauses, facts.lexemes)

/**
 * Whether an open tender matches a filter set: the semantics of the store's search SQL (SearchSql.ts) for the
 * alert matcher and the in-memory store.
 */
export const matchesFilters = (prepared: PreparedFilters, facts: TenderFacts, now: DateTime.Utc): boolean =>
  isOpen(facts.record, now) && matchesView(prepared, facts, viewOf(facts))

/**
 * An inverted index over prepared filter sets: each is filed under its first clause's terms, or under "no text"; a
 * tender is checked only against the sets filed under one of its terms.
 */
export const indexFilters = (all: ReadonlyArray<PreparedFilters>) => {
  const byLexeme = new Map<string, Array<PreparedFilters>>()
  const noText: Array<PreparedFilters> = []
  const file = (map: Map<string, Array<PreparedFilters>>, key: string, prepared: PreparedFilters) => {
    const list = map.get(key)
    if (list === undefined) map.set(key, [prepared])
    else list.push(prepared)
  }
  for (const prepared of all) {
    const first = prepared.query.text.clauses[0]
    if (first === undefined) noText.push(prepared)
    else for (const alternative of first.alternatives) file(byLexeme, alternative.term, prepared)
  }
  /** The filter sets a tender was checked against (the candidates the index found). */
  const candidates = (facts: TenderFacts): ReadonlySet<PreparedFilters> => {
    const found = new Set<PreparedFilters>(noText)
    for (const lexeme of facts.lexemes) {
      for (const prepared of byLexeme.get(lexeme) ?? []) found.add(prepared)
    }
    return found
  }
  return {
    candidates,
    /** The filter sets an open tender matches. */
    matching: (facts: TenderFacts, now: DateTime.Utc): ReadonlyArray<PreparedFilters> => {
      if (!isOpen(facts.record, now)) return []
      const view = viewOf(facts)
      return [...candidates(facts)].filter((prepared) => matchesView(prepared, facts, view))
    }
  }
}
