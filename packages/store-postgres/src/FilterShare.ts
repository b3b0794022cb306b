/**
 * The share of tenders a search's structured filters keep, from the planner's column statistics (`pg_stats`), read
 * with the lexemes' statistics (RankedSearch.ts) instead of asking the planner for each search (an `EXPLAIN` of the
 * filters took 1.4–1.9 ms at 1M, a fifth of a filtered search). The same statistics the planner would use, combined
 * as it does (filters taken as independent): a country's share from the most common values, a CPV prefix's from the
 * most common elements, a budget range's from the histogram, a deadline's from the deadlines' distribution.
 */
import { formatDecimal, isBounded, type AmountRange, type SearchQuery } from "@tenders/core"
import { DateTime, Schema } from "effect"
import type { Statement } from "effect/sql"

/** One column's statistics, as `pg_stats` has them (arrays as text; null where ANALYZE found none). */
export const ColumnRow = Schema.Struct({
  name: Schema.String,
  nulls: Schema.Number,
  distinctValues: Schema.Number,
  commonValues: Schema.NullOr(Schema.Array(Schema.String)),
  commonShares: Schema.NullOr(Schema.Array(Schema.Number)),
  bounds: Schema.NullOr(Schema.Array(Schema.String)),
  elems: Schema.NullOr(Schema.Array(Schema.String)),
  elemShares: Schema.NullOr(Schema.Array(Schema.Number))
})
export type ColumnRow = typeof ColumnRow.Type

/** The statistics of the filtered columns. */
export const columnStatistics = (sql: Statement.Constructor) =>
  sql`SELECT attname AS name, null_frac::float8 AS nulls, n_distinct::float8 AS "distinctValues",
      most_common_vals::text::text[] AS "commonValues", most_common_freqs::float8[] AS "commonShares",
      histogram_bounds::text::text[] AS bounds,
      most_common_elems::text::text[] AS elems, most_common_elem_freqs::float8[] AS "elemShares"
    FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'tenders'
      AND attname IN ('country', 'currency', 'budget', 'cpv_prefixes')`

const sum = (values: Iterable<number>) => {
  let total = 0
  for (const value of values) total += value
  return total
}

/** The share of rows holding a value: a most common value's own, else an even part of the rest. */
const valueShare = (column: ColumnRow, rows: number) => {
  const common = new Map((column.commonValues ?? []).map((value, i) => [value, column.commonShares?.[i] ?? 0]))
  const distinct = column.distinctValues < 0 ? -column.distinctValues * rows : column.distinctValues
  const other = Math.max(0, 1 - column.nulls - sum(common.values())) / Math.max(1, distinct - common.size)
  return (value: string) => common.get(value) ?? other
}

/**
 * The most common elements of an array column (a tsvector's lexemes, CPV prefixes) with the share of rows having
 * each (`listed`), and the share taken for an element they do not list (`unlisted`): rarer than the rarest listed,
 * half of it, as the planner does (`tsquery_opr_selec`, `arraycontsel`). `most_common_elem_freqs` holds one share per
 * element, then the least and greatest share and the share of nulls.
 */
export const commonElements = (elems: ReadonlyArray<string>, shares: ReadonlyArray<number>) => ({
  listed: new Map(elems.map((elem, i) => [elem, shares[i] ?? 0])),
  unlisted: (shares[elems.length] ?? 0) / 2
})

/** The share of rows whose array holds an element. */
const elemShare = (column: ColumnRow) => {
  const { listed, unlisted } = commonElements(column.elems ?? [], column.elemShares ?? [])
  return (elem: string) => listed.get(elem) ?? unlisted
}

/** The share of rows whose number lies in a range: the histogram, spread evenly within each bucket. */
const rangeShare = (column: ColumnRow, range: AmountRange) => {
  const low = range.min === null ? -Infinity : Number(formatDecimal(range.min))
  const high = range.max === null ? Infinity : Number(formatDecimal(range.max))
  const common = (column.commonValues ?? []).map((value, i) => [Number(value), column.commonShares?.[i] ?? 0] as const)
  const commonShare = sum(common.map(([, share]) => share))
  const inCommon = sum(common.filter(([value]) => value >= low && value <= high).map(([, share]) => share))
  const edges = (column.bounds ?? []).map(Number)
  let buckets = 0
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i] ?? 0
    const to = edges[i + 1] ?? 0
    if (to < low || from > high) continue
    buckets += to > from ? (Math.min(to, high) - Math.max(from, low)) / (to - from) : 1
  }
  const histogram = edges.length < 2 ? 0 : (buckets / (edges.length - 1)) * (1 - column.nulls - commonShare)
  return histogram + inCommon
}

/** The share of a converted budget range of one currency: unknown per currency, so the planner's default. */
const convertedRangeShare = 0.5

/**
 * The share of tenders the filters of a search keep (1 without filters, or without statistics of a filtered
 * column), given the share of tenders due in a time range (RankedSearch.ts) and the tenders counted.
 */
export const filterShareOf = (
  columns: ReadonlyArray<ColumnRow>,
  deadlineShare: ((from: number, to: number) => number) | undefined,
  rows: number
) => {
  const column = (name: string) => columns.find((c) => c.name === name)
  const country = column("country")
  const currency = column("currency")
  const budget = column("budget")
  const cpv = column("cpv_prefixes")
  return (query: SearchQuery): number => {
    let share = 1
    if (query.countries.length > 0 && country !== undefined) {
      const of = valueShare(country, rows)
      share *= Math.min(1, sum(query.countries.map(of)))
    }
    if (query.cpvPrefixes.length > 0 && cpv !== undefined) {
      const of = elemShare(cpv)
      share *= Math.min(1, sum(query.cpvPrefixes.map(of)))
    }
    const condition = query.budget
    if (condition?._tag === "Own" && budget !== undefined) share *= rangeShare(budget, condition.range)
    else if (condition?._tag === "Converted" && currency !== undefined) {
      const of = valueShare(currency, rows)
      const withBudget = 1 - (budget?.nulls ?? 0)
      share *= Math.min(
        1,
        sum(
          [...condition.ranges].map(
            ([code, range]) => of(code) * (isBounded(range) ? convertedRangeShare * withBudget : 1)
          )
        )
      )
    }
    if (query.deadlineAfter !== undefined && deadlineShare !== undefined) {
      const now = DateTime.toEpochMillis(query.now)
      const open = deadlineShare(now, Infinity)
      if (open > 0) share *= deadlineShare(Math.max(now, DateTime.toEpochMillis(query.deadlineAfter)), Infinity) / open
    }
    return Math.min(1, Math.max(share, 1e-6))
  }
}
