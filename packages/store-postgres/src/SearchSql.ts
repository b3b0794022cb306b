import {
  type AmountRange,
  type FilterQuery,
  formatDecimal,
  isBounded,
  type QueryToken,
  type SearchQuery,
  wordMatch
} from "@tenders/core"
import type { Statement } from "effect/sql"
import { at, openTender } from "./Sql.ts"

type Sql = Statement.Constructor

// Tokens are letters and digits only (core's tokenize), so `text || ':*'` cannot inject tsquery operators.
const tokenQuery = (sql: Sql, token: QueryToken): Statement.Fragment => {
  const { prefix, stemming } = wordMatch[token.script]
  const forms: Array<Statement.Fragment> = []
  if (stemming !== undefined) forms.push(sql`plainto_tsquery(${stemming}::regconfig, ${token.text})`)
  if (prefix) forms.push(sql`to_tsquery('simple', ${token.text} || ':*')`)
  return forms.length === 1 ? (forms[0] ?? sql`''::tsquery`) : sql`(${sql.join(" || ", false)(forms)})`
}

/** The tsquery of the free text, or undefined when it has no word. Never built by string concatenation. */
export const textQuery = (sql: Sql, words: FilterQuery["words"]): Statement.Fragment | undefined =>
  words.length === 0 ? undefined : sql.join(" && ", true)(words.map((token) => tokenQuery(sql, token)))

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
