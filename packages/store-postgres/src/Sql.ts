import { formatUtc, liveStatuses, UtcTimestamp } from "@tenders/core"
import { DateTime, Schema, SchemaTransformation } from "effect"
import type { Statement } from "effect/sql"

type Sql = Statement.Constructor

/**
 * A `timestamptz` column as UTC ISO text to the millisecond, the one way the store reads instants (decode it with
 * `UtcInstant`); the wire's precision is core's `formatUtc`.
 */
export const utc = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** An instant as `utc` selects it. */
export const UtcInstant = Schema.DateTimeUtcFromString

/** An instant as `utc` selects it, as the wire's text (core `formatUtc`, one precision everywhere). */
export const UtcText = Schema.String.pipe(
  Schema.decodeTo(
    UtcTimestamp,
    SchemaTransformation.transform({ decode: (text) => formatUtc(DateTime.makeUnsafe(text)), encode: (text) => text })
  )
)

/** A JSON column: the driver hands over parsed JSON or, through some paths, its text. */
export const jsonColumn = <S extends Schema.Top>(schema: S) => Schema.Union([schema, Schema.fromJsonString(schema)])

/** An instant as a bound `timestamptz` parameter. */
export const at = (sql: Sql, instant: DateTime.Utc): Statement.Fragment =>
  sql`${DateTime.formatIso(instant)}::timestamptz`

// Literal, not bound: the partial indexes on open tenders (Migrations.ts) apply only when the planner sees the values.
const liveStatusList = `t.status IN (${liveStatuses.map((s) => `'${s}'`).join(", ")})`
const live = (sql: Sql) => sql.literal(liveStatusList)

/** Core's "open tender" (Open.ts) in SQL, over the tenders row `t`: a live status and no passed deadline. */
export const openTender = (sql: Sql, now: DateTime.Utc): Statement.Fragment =>
  sql`(${live(sql)} AND t.deadline_sort > ${at(sql, now)})`

/** A tender of live status whose deadline has passed at `now`: what the deadline sweep closes. */
export const lapsedTender = (sql: Sql, now: DateTime.Utc): Statement.Fragment =>
  sql`(${live(sql)} AND t.deadline_sort <= ${at(sql, now)})`
