import type { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import type { Statement } from "effect/sql"

/** A node of PostgreSQL's plan as `EXPLAIN (ANALYZE, FORMAT JSON)` gives it (the fields read here). */
export interface PlanNode {
  readonly "Relation Name"?: string
  readonly "Actual Rows"?: number
  readonly "Actual Loops"?: number
  readonly "Rows Removed by Filter"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

/** Runs `statement` under `EXPLAIN (ANALYZE, FORMAT JSON)`: the plan it ran with, and what each node read. */
export const explainAnalyzed = (sql: PgClient.PgClient, statement: Statement.Statement<unknown>) => {
  const [text, params] = statement.compile()
  return sql.unsafe<{ readonly "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params).pipe(
    Effect.map((rows) => {
      const output = rows[0]?.["QUERY PLAN"]
      const plans = (typeof output === "string" ? JSON.parse(output) : output) as ReadonlyArray<{ Plan: PlanNode }>
      return plans[0]?.Plan ?? {}
    })
  )
}

/** The rows of `relation` a plan's nodes read (returned or filtered out), over all their loops. */
export const rowsRead = (node: PlanNode, relation: string): number =>
  (node["Relation Name"] === relation
    ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1)
    : 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0)
