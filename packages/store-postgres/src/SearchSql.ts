import {
  type AmountRange,
  bestAlternatives,
  type Clause,
  type Field,
  fieldLetter,
  fieldWeight,
  type FilterQuery,
  formatDecimal,
  isBounded,
  kindWeight,
  type MatchKind,
  rankedFields,
  type SearchQuery,
  wholeTerms
} from "@tenders/core"
import type { Statement } from "effect/sql"
import { at, openTender } from "./Sql.ts"
import { tenderColumns } from "./TenderRow.ts"

type Sql = Statement.Constructor

// A tender's terms are stored as lexemes of one tsvector, each tagged with the best field it occurs in: the
// field's letter (A title, B lots, C buyer and place, D codes) then the term ("Aroad", "Dcpv:45233"). A tag of its
// own, not a tsvector weight, so that the planner's statistics count each term in each field: a query for a term in
// one field gets the estimate of that field, and picks the GIN index or the deadline order rightly.
// tsquery text is built from quoted lexemes only (a quote doubled, a backslash escaped): no term can add an
// operator, and it is sent as a parameter, never concatenated into SQL.

/** A string as a tsvector or tsquery lexeme: quoted, a quote doubled, a backslash escaped. */
export const lexeme = (text: string) =>
  /['\\]/u.test(text) ? `'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'` : `'${text}'`

/** The stored lexeme of a term in a field. */
export const fieldLexeme = (term: string, field: Field): string => `${fieldLetter[field]}${term}`

/** The term of a stored lexeme (what `fieldLexeme` tagged). */
export const termOfLexeme = (stored: string): string => stored.slice(1)

const fieldLetters: ReadonlySet<string> = new Set(Object.values(fieldLetter))

/** Whether a stored lexeme is a term of a field (not the day or week of the deadline, `deadlineLexemes`). */
export const isFieldLexeme = (stored: string): boolean => fieldLetters.has(stored.charAt(0))

/** A day in milliseconds (deadline days are UTC days). */
export const dayMillis = 86_400_000

/** The stored lexeme of a day (UTC) by its date: every tender's ("Y2026-12-01"), a country's ("YPL2026-12-01"). */
const dayLexeme = (date: string, country = ""): string => `Y${country}${date}`

/** The date of a UTC day by its number since 1970-01-01: "2026-12-01". */
const dateOf = (day: number): string => new Date(day * dayMillis).toISOString().slice(0, 10)

/**
 * The stored lexeme of a week: days 7k to 7k + 6 since 1970-01-01 (a Thursday to a Wednesday), of every tender
 * ("W2917") or of a country's ("WPL2917").
 */
const weekLexeme = (week: number, country = ""): string => `W${country}${week}`

/**
 * The stored lexemes of the day (UTC) and the week a deadline falls on, which every tender with a deadline has, and
 * the same of its country: a search asks the GIN index for the tenders of a text due in the next days, in the
 * countries it is filtered by when it is (SearchCost.ts `spanOf`, `spanLexemes`).
 */
export const deadlineLexemes = (epochMillis: number, country: string | null = null): ReadonlyArray<string> => {
  const day = Math.floor(epochMillis / dayMillis)
  const date = dateOf(day)
  const week = Math.floor(day / 7)
  return [
    dayLexeme(date),
    weekLexeme(week),
    ...(country === null || country === "" ? [] : [dayLexeme(date, country), weekLexeme(week, country)])
  ]
}

/**
 * The lexemes of the tenders due in `days` days from the day of `epochMillis` (of the given countries only, when
 * any): whole weeks by their week, the days before and after them by their day (the GIN index merges fewer entries).
 */
export const spanLexemes = (
  epochMillis: number,
  days: number,
  countries: ReadonlyArray<string> = []
): ReadonlyArray<string> => {
  const first = Math.floor(epochMillis / dayMillis)
  const of = countries.length === 0 ? [""] : countries
  const lexemes: Array<string> = []
  for (let day = first; day < first + days;) {
    if (day % 7 === 0 && day + 7 <= first + days) {
      for (const country of of) lexemes.push(weekLexeme(day / 7, country))
      day += 7
    } else {
      const date = dateOf(day)
      for (const country of of) lexemes.push(dayLexeme(date, country))
      day += 1
    }
  }
  return lexemes
}

/** The stored lexemes of terms in fields (all fields when not given). */
export const lexemesOf = (terms: ReadonlyArray<string>, fields: ReadonlyArray<Field> = rankedFields) =>
  terms.flatMap((term) => fields.map((field) => fieldLexeme(term, field)))

/** The tsquery text of a tender having any of the stored lexemes. */
export const anyLexeme = (lexemes: ReadonlyArray<string>) => `(${lexemes.map(lexeme).join(" | ")})`

/** The condition of a tender `t` having any of the stored lexemes. */
export const hasAnyLexeme = (sql: Sql, lexemes: ReadonlyArray<string>): Statement.Fragment =>
  sql`t.search_vec @@ ${anyLexeme(lexemes)}::tsquery`

/** The tsquery text of a tender having any of the terms in any of the fields (all fields when not given). */
export const anyOf = (terms: ReadonlyArray<string>, fields: ReadonlyArray<Field> = rankedFields) =>
  anyLexeme(lexemesOf(terms, fields))

/** The tsquery of a tender having, for each set, one of its lexemes. */
export const allOf = (sql: Sql, sets: ReadonlyArray<ReadonlyArray<string>>): Statement.Fragment =>
  sql`${sets.map(anyLexeme).join(" & ")}::tsquery`

/**
 * The tsquery of a tender having, for every set but at most one, one of its lexemes (a query's tenders that lack
 * one word only).
 */
export const allButOne = (sql: Sql, sets: ReadonlyArray<ReadonlyArray<string>>): Statement.Fragment =>
  sql`${sets
    .map(
      (_, i) =>
        `(${sets
          .filter((_, j) => j !== i)
          .map(anyLexeme)
          .join(" & ")})`
    )
    .join(" | ")}::tsquery`

/** For each clause, the lexemes of its terms (in the given fields, all when not given). */
export const clauseLexemes = (text: FilterQuery["text"], fields?: ReadonlyArray<Field>) =>
  text.clauses.map((clause) =>
    lexemesOf(
      clause.alternatives.map((a) => a.term),
      fields
    )
  )

/**
 * The condition of a tender matching the whole query (core `matchesWhole`): every clause but the generic ones by its
 * `wholeTerms`. The same for every tender when no clause can be matched whole, or every clause is generic: then a
 * cast constant, which an ORDER BY takes (it refuses a bare `true`: "non-integer constant in ORDER BY").
 */
export const wholeCondition = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment => {
  const sets = text.clauses.filter((clause) => clause.generic !== true).map((clause) => lexemesOf(wholeTerms(clause)))
  if (sets.some((set) => set.length === 0)) return sql`false::boolean`
  return sets.length === 0 ? sql`true::boolean` : sql`t.search_vec @@ ${allOf(sql, sets)}`
}

/** The tsquery of tenders having every clause (what alerts and `count` match), or undefined without text. */
export const everyClause = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment | undefined =>
  text.clauses.length === 0 ? undefined : allOf(sql, clauseLexemes(text))

/**
 * For each clause, the lexemes of its best alternatives (core `bestAlternatives`) in the title: a tender with one
 * of each has the highest relevance there is.
 */
export const bestLexemes = (text: FilterQuery["text"]) =>
  text.clauses.map((clause) =>
    lexemesOf(
      bestAlternatives(clause).map((a) => a.term),
      ["title"]
    )
  )

/**
 * The levels of a one-clause query, best first: each the lexemes of the matches worth one score (core
 * `clauseScore`: a kind's weight times a field's). A tender's relevance is its first level's: the levels in order,
 * each by deadline and without the tenders of the levels before, are the exact ranking.
 */
export const levelLexemes = (clause: Clause): ReadonlyArray<ReadonlyArray<string>> => {
  const byScore = new Map<number, Array<string>>()
  for (const alternative of clause.alternatives) {
    for (const field of rankedFields) {
      const score = kindWeight[alternative.kind] * fieldWeight[field]
      byScore.set(score, [...(byScore.get(score) ?? []), fieldLexeme(alternative.term, field)])
    }
  }
  return [...byScore].toSorted(([a], [b]) => b - a).map(([, lexemes]) => lexemes)
}

/**
 * The relevance of `t` to the query: core's `relevance` (TextQuery.ts) in SQL. Each clause counts its weight times
 * its best match, a kind's weight times the weight of the field the term occurs in (its lexeme's tag).
 */
export const relevanceSql = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment => {
  const clauses = text.clauses.map((clause) => {
    const byKind = new Map<MatchKind, Array<string>>()
    for (const a of clause.alternatives) byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a.term])
    const kinds = [...byKind].map(([kind, terms]) => {
      const branches = rankedFields.map(
        (field) =>
          sql`WHEN t.search_vec @@ ${anyOf(terms, [field])}::tsquery
            THEN ${kindWeight[kind] * fieldWeight[field]}::float8`
      )
      return sql`(CASE ${sql.join(" ", false)(branches)} ELSE 0::float8 END)`
    })
    const best = kinds.length === 1 ? kinds[0] : sql`greatest(${sql.join(", ", false)(kinds)})`
    return sql`${clause.weight}::float8 * ${best}`
  })
  return clauses.length === 0 ? sql`0::float8` : sql.join(" + ", false)(clauses)
}

/**
 * Core's `rankOrder` in SQL, for `t`: the tenders matching the whole query first, then by relevance (`weighed`: the
 * query's plan with each clause weighed by its rarity, core `weighClauses`), then by deadline, then id.
 */
export const rankOrderSql = (sql: Sql, text: FilterQuery["text"], weighed: FilterQuery["text"]): Statement.Fragment =>
  sql`${wholeCondition(sql, text)} DESC, ${relevanceSql(sql, weighed)} DESC, t.deadline_sort, t.id`

/** A ranked page's columns: the tender's (`tenderColumns`), and whether it has every clause (`complete`). */
export const rankedColumns = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment =>
  sql`${sql.literal(tenderColumns)}, t.search_vec @@ ${allOf(sql, clauseLexemes(text))} AS complete`

/** The elements of an `ARRAY[...]`, a parameter each (`sql.in` writes a list in parentheses, which it cannot take). */
const arrayElements = (sql: Sql, values: ReadonlyArray<string>) => sql.join(", ", false)(values.map((v) => sql`${v}`))

const inRange = (sql: Sql, range: AmountRange): Statement.Fragment => {
  const parts = [sql`t.budget IS NOT NULL`]
  if (range.min !== null) parts.push(sql`t.budget >= ${formatDecimal(range.min)}::numeric`)
  if (range.max !== null) parts.push(sql`t.budget <= ${formatDecimal(range.max)}::numeric`)
  return sql.and(parts)
}
/** The WHERE conditions of a search: open tenders, the given text conditions, every filter (core FilterMatch.ts). */
export const searchConditions = (sql: Sql, query: SearchQuery, textConditions: ReadonlyArray<Statement.Fragment>) => {
  const conditions: Array<Statement.Fragment> = [openTender(sql, query.now), ...textConditions]
  if (query.countries.length > 0) conditions.push(sql`t.country IN ${sql.in(query.countries)}`)
  if (query.cpvPrefixes.length > 0)
    conditions.push(sql`t.cpv_prefixes && ARRAY[${arrayElements(sql, query.cpvPrefixes)}]::text[]`)
  if (query.deadlineAfter !== undefined) conditions.push(sql`t.deadline > ${at(sql, query.deadlineAfter)}`)
  const budget = query.budget
  if (budget?._tag === "Own") conditions.push(inRange(sql, budget.range))
  else if (budget?._tag === "Converted") {
    const ranges = [...budget.ranges]
    if (ranges.length === 0) conditions.push(sql`false`)
    else if (!ranges.some(([, range]) => isBounded(range))) {
      conditions.push(sql`t.currency IN ${sql.in(ranges.map(([currency]) => currency))}`)
    } else {
      // A CASE, not an OR of ranges: the planner would AND bitmaps of 15 budget ranges, which costs far more
      // than checking the budget of rows found through the text or deadline indexes.
      const branches = ranges.map(([currency, range]) => sql`WHEN ${currency} THEN ${inRange(sql, range)}`)
      conditions.push(sql`(CASE t.currency ${sql.join(" ", false)(branches)} ELSE false END)`)
    }
  }
  return sql.and(conditions)
}
