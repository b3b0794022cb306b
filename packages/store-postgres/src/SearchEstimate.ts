/**
 * What the planner's statistics (SearchStatistics.ts) and the sample of lexemes (LexemeSample.ts) say of a search's
 * text conditions, each a tender having one lexeme of each of its sets: how many tenders have it (`estimateOf`),
 * what share of them the query's filters keep (`filteredShares`), and how much each clause weighs by its rarity
 * (`weighedPlan`). Pure: the search weighs its ways from them (SearchCost.ts).
 */
import {
  type Clause,
  type FilterFacts,
  passesCountryFilter,
  passesStructuredFilters,
  type SearchQuery,
  weighClauses
} from "@tenders/core"
import type { LexemeSample } from "./LexemeSample.ts"
import { lexemesOf } from "./SearchSql.ts"
import type { SearchStatistics } from "./SearchStatistics.ts"

/**
 * What a text condition is estimated to cost: the tenders having it (`matches`), the fewest it is likely to have
 * (`least`: what a span of deadline days is sized by, since too few days cost a probe), and the index entries of its
 * sets of lexemes (`entries`: the sets a tender must each have one of, `sets` of them).
 */
export interface Estimate {
  readonly matches: number
  readonly least: number
  readonly entries: number
  readonly sets: number
}

/**
 * The estimate of the tenders having one lexeme of each set: counted in the sample when it met enough of them; else
 * between what independent sets would have (the planner's estimate) and what the rarest set has (sets always found
 * together). The words of one query tend to occur together ("поставка лекарственных препаратов"): taken halfway, as
 * the geometric mean. An estimate, not a bound (every way is bounded).
 */
export const estimateOf = (
  stats: SearchStatistics,
  sample: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>
): Estimate => {
  const counts = sets.map((set) => stats.matchesOfAny(set)).toSorted((a, b) => a - b)
  const rarest = counts[0] ?? stats.tenders
  const independent = counts.reduce((matches, count) => (matches * count) / Math.max(stats.tenders, 1), stats.tenders)
  const counted = sample.matchesOfEvery(sets)
  return {
    matches: counted?.matches ?? Math.sqrt(independent * rarest),
    least: counted?.least ?? independent,
    entries: counts.reduce((sum, count) => sum + count, 0),
    sets: counts.length
  }
}

/**
 * The estimate of a condition a tender meets by meeting any of several (a query's tenders lacking one clause: every
 * clause but the first, or every clause but the second, ...): their sum, as if no tender met two of them.
 */
export const estimateOfAny = (estimates: ReadonlyArray<Estimate>): Estimate =>
  estimates.reduce((sum, one) => ({
    matches: sum.matches + one.matches,
    entries: sum.entries + one.entries,
    sets: sum.sets + one.sets,
    least: sum.least + one.least
  }))

/** A query's clause with the fewest tenders by the statistics, as its lexemes. */
export const rarestClause = (clauses: ReadonlyArray<ReadonlyArray<string>>, stats: SearchStatistics) =>
  clauses.toSorted((a, b) => stats.matchesOfAny(a) - stats.matchesOfAny(b))[0]

/**
 * Shares of the tenders of a text condition (one lexeme of each set): those a query's structured filters keep
 * (`kept`), and those in its filtered countries (`inCountries`, 1 without a country filter).
 */
export interface Shares {
  readonly kept: number
  readonly inCountries: number
}

/**
 * The share of the tenders of a text condition (one lexeme of each set) that pass a test: counted in the sample among
 * those it has, when it met enough of them, else among those having the condition's rarest set (a text and the
 * filters are seldom independent: a Russian word's tenders are Russia's, an English word's the EU's); else the
 * statistics' (`prior`), which take the filters as independent of the text.
 */
const sampledShare = (
  stats: SearchStatistics,
  sampled: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>,
  passes: (facts: FilterFacts) => boolean,
  prior: number
) => {
  if (prior >= 1 || sets.length === 0) return prior
  const rarest = sets.length > 1 ? rarestClause(sets, stats) : undefined
  const counted =
    sampled.keptShare(sets, passes, prior) ??
    (rarest === undefined ? undefined : sampled.keptShare([rarest], passes, prior))
  return counted === undefined ? prior : Math.max(counted, 1e-6)
}

/** The shares of a text condition's tenders its query's filters keep, and its filtered countries hold. */
export const filteredShares = (
  query: SearchQuery,
  stats: SearchStatistics,
  sampled: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>
): Shares => ({
  kept: sampledShare(stats, sampled, sets, (facts) => passesStructuredFilters(query, facts), stats.filterShare(query)),
  inCountries:
    query.countries.length === 0
      ? 1
      : sampledShare(
          stats,
          sampled,
          sets,
          (facts) => passesCountryFilter(query.countries, facts.country),
          stats.countryShare(query.countries)
        )
})

const termsOf = (clause: Clause) => clause.alternatives.map((a) => a.term)

/** The query's plan with each clause weighed by its rarity among the tenders (core `weighClauses`). */
export const weighedPlan = (query: SearchQuery, stats: SearchStatistics) =>
  weighClauses(query.text, (clause) => stats.matchesOfAny(lexemesOf(termsOf(clause))), stats.tenders)
