import {
  type AmountRange,
  type Clause,
  fieldLetter,
  fieldWeight,
  type FilterQuery,
  formatDecimal,
  isBounded,
  kindWeight,
  type MatchKind,
  rankedFields,
  type SearchQuery
} from "@tenders/core"
import type { Statement } from "effect/sql"
import { at, openTender } from "./Sql.ts"

type Sql = Statement.Constructor

// tsquery text is built from quoted terms only (a quote doubled, a backslash escaped): no term can add an
// operator, and it is sent as a parameter, never concatenated into SQL.
/** A term as a tsvector or tsquery lexeme: quoted, a quote doubled, a backslash escaped. */
export const lexeme = (term: string) => `'${term.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`
/** The tsquery text of any of the terms, in fields of the given weights (all when none). */
export const anyOf = (terms: ReadonlyArray<string>, weights = "") =>
  `(${terms.map((t) => `${lexeme(t)}${weights ? `:${weights}` : ""}`).join(" | ")})`

/** The tsquery text of a tender having any of a clause's terms. */
const clauseText = (clause: Clause) => anyOf(clause.alternatives.map((a) => a.term))

/** The tsquery of tenders having every clause (what alerts and `count` match), or undefined without text. */
export const everyClause = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment | undefined =>
  text.clauses.length === 0 ? undefined : sql`${text.clauses.map(clauseText).join(" & ")}::tsquery`

/** The tsquery of tenders having every clause in their title (the first candidate tier), or undefined without text. */
export const everyClauseInTitle = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment | undefined =>
  text.clauses.length === 0
    ? undefined
    : sql`${text.clauses
        .map((c) =>
          anyOf(
            c.alternatives.map((a) => a.term),
            fieldLetter.title
          )
        )
        .join(" & ")}::tsquery`

/** The tsquery of tenders having any clause (the search's candidates), or undefined without text. */
export const anyClause = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment | undefined =>
  text.clauses.length === 0 ? undefined : sql`${text.clauses.map(clauseText).join(" | ")}::tsquery`

/**
 * The relevance of `t` to the query: core's `relevance` (TextQuery.ts) in SQL. Each clause counts its weight times
 * its best match, a kind's weight times the weight of the best field the term occurs in (the tsvector's weight).
 */
export const relevanceSql = (sql: Sql, text: FilterQuery["text"]): Statement.Fragment => {
  const clauses = text.clauses.map((clause) => {
    const byKind = new Map<MatchKind, Array<string>>()
    for (const a of clause.alternatives) byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a.term])
    const kinds = [...byKind].map(([kind, terms]) => {
      const branches = rankedFields.map(
        (field) =>
          sql`WHEN t.search_vec @@ ${anyOf(terms, fieldLetter[field])}::tsquery
            THEN ${kindWeight[kind] * fieldWeight[field]}::float8`
      )
      return sql`(CASE ${sql.join(" ", false)(branches)} ELSE 0::float8 END)`
    })
    const best = kinds.length === 1 ? kinds[0] : sql`greatest(${sql.join(", ", false)(kinds)})`
    return sql`${clause.weight}::float8 * ${best}`
  })
  return clauses.length === 0 ? sql`0::float8` : sql.join(" + ", false)(clauses)
}

const list = (sql: Sql, values: ReadonlyArray<string>) => sql.join(", ", false)(values.map((v) => sql`${v}`))

const inRange = (sql: Sql, range: AmountRange): Statement.Fragment => {
  const parts = [sql`t.budget IS NOT NULL`]
  if (range.min !== null) parts.push(sql`t.budget >= ${formatDecimal(range.min)}::numeric`)
  if (range.max !== null) parts.push(sql`t.budget <= ${formatDecimal(range.max)}::numeric`)
  return sql.and(parts)
}
/** The WHERE conditions of a search: open tenders, the given text conditions, every filter (core FilterMatch.ts). */
export const searchConditions = (sql: Sql, query: SearchQuery, textConditions: ReadonlyArray<Statement.Fragment>) => {
  const conditions: Array<Statement.Fragment> = [openTender(sql, query.now), ...textConditions]
  if (query.countries.length > 0) conditions.push(sql`t.country IN (${list(sql, query.countries)})`)
  if (query.cpvPrefixes.length > 0)
    conditions.push(sql`t.cpv_prefixes && ARRAY[${list(sql, query.cpvPrefixes)}]::text[]`)
  if (query.deadlineAfter !== undefined) conditions.push(sql`t.deadline > ${at(sql, query.deadlineAfter)}`)
  const budget = query.budget
  if (budget?._tag === "Own") conditions.push(inRange(sql, budget.range))
  else if (budget?._tag === "Converted") {
    const ranges = [...budget.ranges]
    if (ranges.length === 0) conditions.push(sql`false`)
    else if (!ranges.some(([, range]) => isBounded(range))) {
      conditions.push(
        sql`t.currency IN (${list(
          sql,
          ranges.map(([currency]) => currency)
        )})`
      )
    } else {
      // A CASE, not an OR of ranges: the planner would AND bitmaps of 15 budget ranges, which costs far more
      // than checking the budget of rows found through the text or deadline indexes.
      const branches = ranges.map(([currency, range]) => sql`WHEN ${currency} THEN ${inRange(sql, range)}`)
      conditions.push(sql`(CASE t.currency ${sql.join(" ", false)(branches)} ELSE false END)`)
    }
  }
  return sql.and(conditions)
}
