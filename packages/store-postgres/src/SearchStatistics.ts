/**
 * The planner's statistics (`pg_stats`, read in one statement) as a search weighs its ways (SearchCost.ts): how
 * many tenders have a lexeme, the share of tenders due in a time range, and the share a search's structured filters
 * keep. They are read instead of asking the planner for each search (an `EXPLAIN` of the filters took 1.4–1.9 ms at
 * 1M, a fifth of a filtered search), and combined as the planner does: filters taken as independent; a country's
 * share from the most common values, a CPV prefix's or a lexeme's from the most common elements, a budget range's
 * or a deadline's from the histogram.
 */
import { type AmountRange, formatDecimal, isBounded, type SearchQuery } from "@tenders/core"
import { DateTime, Effect, Schema } from "effect"
import type { Statement } from "effect/sql"

/**
 * One column's statistics, as `pg_stats` has them: values as text, those of `deadline_sort` as seconds since the
 * epoch ("Infinity" for a tender without a deadline); null where ANALYZE found none. `name` is null when the table
 * has no statistics at all.
 */
export const ColumnRow = Schema.Struct({
  rows: Schema.Number,
  name: Schema.NullOr(Schema.String),
  nulls: Schema.Number,
  distinctValues: Schema.Number,
  commonValues: Schema.NullOr(Schema.Array(Schema.String)),
  commonShares: Schema.NullOr(Schema.Array(Schema.Number)),
  bounds: Schema.NullOr(Schema.Array(Schema.String)),
  elems: Schema.NullOr(Schema.Array(Schema.String)),
  elemShares: Schema.NullOr(Schema.Array(Schema.Number))
})
export type ColumnRow = typeof ColumnRow.Type

/** The statistics a search reads: the tenders counted, and those of the searched and filtered columns. */
const columnStatistics = (sql: Statement.Constructor) => {
  const values = (column: string) =>
    sql.literal(`CASE WHEN s.attname = 'deadline_sort'
      THEN ARRAY(SELECT extract(epoch FROM b)::text FROM unnest(${column}::text::timestamptz[]) b)
      ELSE ${column}::text::text[] END`)
  return sql`SELECT c.reltuples::float8 AS rows, s.attname AS name, COALESCE(s.null_frac, 0)::float8 AS nulls,
      COALESCE(s.n_distinct, 0)::float8 AS "distinctValues",
      ${values("s.most_common_vals")} AS "commonValues", s.most_common_freqs::float8[] AS "commonShares",
      ${values("s.histogram_bounds")} AS bounds,
      s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs::float8[] AS "elemShares"
    FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'tenders'
      AND s.attname IN ('search_vec', 'deadline_sort', 'country', 'currency', 'budget', 'cpv_prefixes')
    WHERE c.oid = 'tenders'::regclass`
}

/**
 * What a search knows of the stored tenders: about how many have one of some lexemes (Infinity when unknown), the
 * share due in a time range in milliseconds (undefined when unknown), the share a search's filters keep.
 */
export interface SearchStatistics {
  readonly tenders: number
  readonly matchesOfAny: (lexemes: ReadonlyArray<string>) => number
  /** Whether none of the lexemes is listed among the most common: each is in fewer tenders than any listed one. */
  readonly unlisted: (lexemes: ReadonlyArray<string>) => boolean
  readonly deadlineShare: ((from: number, to: number) => number) | undefined
  readonly filterShare: (query: SearchQuery) => number
  /** The share of tenders in any of the countries (1 for none, or without statistics of the column). */
  readonly countryShare: (countries: ReadonlyArray<string>) => number
}

const sum = (values: Iterable<number>) => {
  let total = 0
  for (const value of values) total += value
  return total
}

/**
 * The most common elements of an array column (a tsvector's lexemes, CPV prefixes) with the share of rows having
 * each (`listed`), and the share taken for an element they do not list (`unlisted`): rarer than the rarest listed,
 * half of it, as the planner does (`tsquery_opr_selec`, `arraycontsel`). `most_common_elem_freqs` holds one share per
 * element, then the least and greatest share and the share of nulls.
 */
const commonElements = (column: ColumnRow) => {
  const elems = column.elems ?? []
  const shares = column.elemShares ?? []
  return { listed: new Map(elems.map((elem, i) => [elem, shares[i] ?? 0])), unlisted: (shares[elems.length] ?? 0) / 2 }
}

/** The share of rows holding a value: a most common value's own, else an even part of the rest. */
const valueShare = (column: ColumnRow, rows: number) => {
  const common = new Map((column.commonValues ?? []).map((value, i) => [value, column.commonShares?.[i] ?? 0]))
  const distinct = column.distinctValues < 0 ? -column.distinctValues * rows : column.distinctValues
  const other = Math.max(0, 1 - column.nulls - sum(common.values())) / Math.max(1, distinct - common.size)
  return (value: string) => common.get(value) ?? other
}

/**
 * The share of rows whose number lies from `low` to `high` (`high` itself counted when `withHigh`): the most common
 * values in it, and the histogram of the others, spread evenly within each bucket.
 */
const numberShareOf = (column: ColumnRow) => {
  // The column's statistics as numbers once, not at every search.
  const common = (column.commonValues ?? []).map((value, i) => [Number(value), column.commonShares?.[i] ?? 0] as const)
  const edges = (column.bounds ?? []).map(Number)
  const others = 1 - column.nulls - sum(common.map(([, share]) => share))
  return (low: number, high: number, withHigh: boolean): number => {
    const inCommon = common.filter(([value]) => value >= low && (value < high || (withHigh && value === high)))
    let buckets = 0
    for (let i = 0; i + 1 < edges.length; i++) {
      const from = edges[i] ?? 0
      const to = edges[i + 1] ?? 0
      if (to <= low || from >= high) continue
      buckets += Number.isFinite(to - from) && to > from ? (Math.min(to, high) - Math.max(from, low)) / (to - from) : 1
    }
    const histogram = edges.length < 2 ? 0 : (buckets / (edges.length - 1)) * others
    return histogram + sum(inCommon.map(([, share]) => share))
  }
}

/** The share of a budget range in each tender's own currency. */
const rangeShareOf = (column: ColumnRow) => {
  const share = numberShareOf(column)
  return (range: AmountRange) =>
    share(
      range.min === null ? -Infinity : Number(formatDecimal(range.min)),
      range.max === null ? Infinity : Number(formatDecimal(range.max)),
      true
    )
}

/** The share of a converted budget range of one currency: unknown per currency, so the planner's default. */
const convertedRangeShare = 0.5

/** The share of tenders in any of the countries (1 for none, or without statistics of the column). */
const countryShareOf = (column: (name: string) => ColumnRow | undefined, rows: number) => {
  const country = column("country")
  const of = country === undefined ? undefined : valueShare(country, rows)
  return (countries: ReadonlyArray<string>): number =>
    countries.length === 0 || of === undefined ? 1 : Math.min(1, sum(countries.map(of)))
}

/** The share of tenders the filters of a search keep (1 without filters, or without statistics of a column). */
const filterShareOf = (
  column: (name: string) => ColumnRow | undefined,
  deadlineShare: SearchStatistics["deadlineShare"],
  countryShare: SearchStatistics["countryShare"],
  rows: number
) => {
  const currency = column("currency")
  const budget = column("budget")
  const cpv = column("cpv_prefixes")
  // Each column's shares made once per statistics read, not at every search.
  const cpvElements = cpv === undefined ? undefined : commonElements(cpv)
  const budgetShare = budget === undefined ? undefined : rangeShareOf(budget)
  const currencyShare = currency === undefined ? undefined : valueShare(currency, rows)
  return (query: SearchQuery): number => {
    let share = countryShare(query.countries)
    if (query.cpvPrefixes.length > 0 && cpvElements !== undefined) {
      const { listed, unlisted } = cpvElements
      share *= Math.min(1, sum(query.cpvPrefixes.map((prefix) => listed.get(prefix) ?? unlisted)))
    }
    const condition = query.budget
    if (condition?._tag === "Own" && budgetShare !== undefined) share *= budgetShare(condition.range)
    else if (condition?._tag === "Converted" && currencyShare !== undefined) {
      const of = currencyShare
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

/** What a search knows, from the rows of `columnStatistics` (no row, or a row without a name: nothing). */
export const toSearchStatistics = (columns: ReadonlyArray<ColumnRow>): SearchStatistics => {
  const rows = columns[0]?.rows ?? -1
  const column = (name: string) => columns.find((c) => c.name === name)
  const deadlines = column("deadline_sort")
  const deadlineNumbers = deadlines === undefined ? undefined : numberShareOf(deadlines)
  const deadlineShare =
    rows < 0 ||
    deadlines === undefined ||
    deadlineNumbers === undefined ||
    ((deadlines.bounds ?? []).length < 2 && !deadlines.commonValues?.length)
      ? undefined
      : (from: number, to: number) => deadlineNumbers(from / 1000, to / 1000, false)
  const countryShare = countryShareOf(column, Math.max(rows, 0))
  const filterShare = filterShareOf(column, deadlineShare, countryShare, Math.max(rows, 0))
  const lexemes = column("search_vec")
  if (rows < 0 || lexemes === undefined || lexemes.elems === null || lexemes.elemShares === null)
    return {
      tenders: Math.max(rows, 0),
      matchesOfAny: () => Infinity,
      unlisted: () => false,
      deadlineShare,
      filterShare,
      countryShare
    }
  // The unlisted lexemes of a condition (mostly forms of one word, found together) count as one.
  const { listed: share, unlisted } = commonElements(lexemes)
  return {
    tenders: rows,
    matchesOfAny: (found) => {
      let listed = 0
      let rare = 0
      for (const lexeme of found) {
        const known = share.get(lexeme)
        if (known === undefined) rare = unlisted
        else listed += known
      }
      return rows * Math.min(1, listed + rare)
    },
    unlisted: (lexemes) => lexemes.every((lexeme) => !share.has(lexeme)),
    deadlineShare,
    filterShare,
    countryShare
  }
}

/** Reads the statistics a search weighs its ways by. */
export const loadSearchStatistics = (sql: Statement.Constructor) =>
  columnStatistics(sql).pipe(
    Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(ColumnRow))),
    Effect.map(toSearchStatistics),
    Effect.orDie
  )
