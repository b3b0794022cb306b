import type { QueryToken, SearchQuery } from "@tenders/core"
import { DateTime } from "effect"
import type { Statement } from "effect/sql"

type Sql = Statement.Constructor

const tokenQuery = (sql: Sql, token: QueryToken): Statement.Fragment => {
  switch (token.script) {
    case "latin":
      return sql`plainto_tsquery('english', ${token.text})`
    case "cyrillic":
      return sql`plainto_tsquery('russian', ${token.text})`
    // Snowball keeps Armenian plurals, so Armenian words also match by prefix; tokens are letters/digits only.
    case "armenian":
      return sql`(plainto_tsquery('armenian', ${token.text}) || to_tsquery('simple', ${token.text} || ':*'))`
    case "other":
      return sql`to_tsquery('simple', ${token.text} || ':*')`
  }
}

/** The tsquery of the free text, or undefined when it has no word. Never built by string concatenation. */
export const textQuery = (sql: Sql, tokens: SearchQuery["tokens"]): Statement.Fragment | undefined =>
  tokens.length === 0 ? undefined : sql.join(" && ", true)(tokens.map((token) => tokenQuery(sql, token)))

const iso = (instant: DateTime.Utc) => DateTime.formatIso(instant)

const list = (sql: Sql, values: ReadonlyArray<string>) => sql.join(", ", false)(values.map((v) => sql`${v}`))

/** The WHERE conditions of a search: open tenders, the given text conditions, and every filter. */
export const searchConditions = (sql: Sql, query: SearchQuery, textConditions: ReadonlyArray<Statement.Fragment>) => {
  const conditions: Array<Statement.Fragment> = [
    sql`t.status IN ('open', 'amended')`,
    sql`t.deadline_sort > ${iso(query.now)}::timestamptz`,
    ...textConditions
  ]
  if (query.countries.length > 0) conditions.push(sql`t.country IN (${list(sql, query.countries)})`)
  if (query.cpvPrefixes.length > 0)
    conditions.push(sql`t.cpv_prefixes && ARRAY[${list(sql, query.cpvPrefixes)}]::text[]`)
  if (query.deadlineAfter !== undefined) conditions.push(sql`t.deadline > ${iso(query.deadlineAfter)}::timestamptz`)
  const budget = query.budget
  if (budget?._tag === "Own") {
    conditions.push(sql`t.budget IS NOT NULL`)
    if (budget.min !== null) conditions.push(sql`t.budget >= ${budget.min}::numeric`)
    if (budget.max !== null) conditions.push(sql`t.budget <= ${budget.max}::numeric`)
  } else if (budget?._tag === "Converted") {
    const ranged = budget.bounds.filter((b) => b.min !== null || b.max !== null)
    if (ranged.length === 0) {
      conditions.push(
        sql`t.currency IN (${list(
          sql,
          budget.bounds.map((b) => b.currency)
        )})`
      )
    } else {
      // A CASE, not an OR of ranges: the planner would AND bitmaps of 15 budget ranges, which costs far more
      // than checking the budget of rows found through the text or deadline indexes.
      const branches = ranged.map((b) => {
        const parts = [sql`t.budget IS NOT NULL`]
        if (b.min !== null) parts.push(sql`t.budget >= ${b.min}::numeric`)
        if (b.max !== null) parts.push(sql`t.budget <= ${b.max}::numeric`)
        return sql`WHEN ${b.currency} THEN ${sql.and(parts)}`
      })
      conditions.push(sql`(CASE t.currency ${sql.join(" ", false)(branches)} ELSE false END)`)
    }
  }
  return sql.and(conditions)
}
