import { liveStatuses, utcToTheSecond, UtcTimestamp } from "@tenders/core"
import { DateTime, Predicate, Schema, SchemaTransformation } from "effect"
import type { Statement } from "effect/sql"
import { DISK_FULL, READ_ONLY_SQL_TRANSACTION } from "./embedded/WireProtocol.ts"

type Sql = Statement.Constructor

/**
 * A `timestamptz` column as UTC ISO text to the millisecond, the one way the store reads instants (decode it with
 * `UtcInstant`); the wire's precision is core's `formatUtc`.
 */
export const utc = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The columns of core's `Account`, over the accounts row `a`. */
export const accountColumns = `a.id::text AS id, a.email, a.plan, a.monthly_limit AS "monthlyLimit"`

/** An instant as `utc` selects it. */
export const UtcInstant = Schema.DateTimeUtcFromString

/**
 * An instant as `utc` selects it, as the wire's text (core `formatUtc`, one precision everywhere): the selected text
 * cut to the second, with no instant made for it (a search's cards have three each). `UtcTimestamp`'s check refuses
 * anything that was not `utc`'s text.
 */
export const UtcText = Schema.String.pipe(
  Schema.decodeTo(UtcTimestamp, SchemaTransformation.transform({ decode: utcToTheSecond, encode: (text) => text }))
)

/** A JSON column: the driver hands over parsed JSON or, through some paths, its text. */
export const jsonColumn = <S extends Schema.Top>(schema: S) => Schema.Union([schema, Schema.fromJsonString(schema)])

/** An instant as a bound `timestamptz` parameter. */
export const at = (sql: Sql, instant: DateTime.Utc): Statement.Fragment =>
  sql`${DateTime.formatIso(instant)}::timestamptz`

/** The tables whose rows writes delete as they go once nobody can use them, each with its key. */
const tidiedTables = {
  sessions: "token_hash",
  oauth_tokens: "token_hash",
  oauth_codes: "code_hash",
  sign_in_links: "token_hash",
  oauth_clients: "client_id"
} as const

/**
 * The keys of up to 1,000 rows of `table` that `unusable` says nobody can use, skipping those another transaction
 * holds: a write that deletes such rows as it goes (a new session, token pair, code, link or client) never waits
 * for, nor deadlocks with, another replica's doing the same, and a backlog goes a thousand at a time.
 */
export const rowsToTidy = (
  sql: Sql,
  table: keyof typeof tidiedTables,
  unusable: Statement.Fragment
): Statement.Fragment =>
  sql`SELECT ${sql.literal(tidiedTables[table])} FROM ${sql.literal(table)} WHERE ${unusable}
    LIMIT 1000 FOR UPDATE SKIP LOCKED`

/** The keys of up to 1,000 rows of `table` expired at `instant` (`rowsToTidy`). */
export const expiredRows = (
  sql: Sql,
  table: Exclude<keyof typeof tidiedTables, "oauth_clients">,
  instant: Statement.Fragment
): Statement.Fragment => rowsToTidy(sql, table, sql`expires_at <= ${instant}`)

// Literal, not bound: the partial indexes on open tenders (Migrations.ts) apply only when the planner sees the values.
const liveStatusList = `t.status IN (${liveStatuses.map((s) => `'${s}'`).join(", ")})`
const live = (sql: Sql) => sql.literal(liveStatusList)

/** Core's "open tender" (Open.ts) in SQL, over the tenders row `t`: a live status and no passed deadline. */
export const openTender = (sql: Sql, now: DateTime.Utc): Statement.Fragment =>
  sql`(${live(sql)} AND t.deadline_sort > ${at(sql, now)})`

/** A tender of live status whose deadline has passed at `now`: what the deadline sweep closes. */
export const lapsedTender = (sql: Sql, now: DateTime.Utc): Statement.Fragment =>
  sql`(${live(sql)} AND t.deadline_sort <= ${at(sql, now)})`

/** The SQLSTATE an error carries, looked for through the causes it wraps (the embedded client wraps its own). */
const sqlStateOf = (error: unknown, depth = 0): string | undefined => {
  if (depth > 5 || !Predicate.isObject(error)) return undefined
  if (Predicate.hasProperty(error, "code") && typeof error.code === "string" && /^[0-9A-Z]{5}$/u.test(error.code)) {
    return error.code
  }
  const reason = Predicate.hasProperty(error, "reason") ? error.reason : undefined
  return (
    sqlStateOf(Predicate.hasProperty(reason, "cause") ? reason.cause : undefined, depth + 1) ??
    sqlStateOf(Predicate.hasProperty(error, "cause") ? error.cause : undefined, depth + 1)
  )
}

/** Whether the store refused a write it could not make now: a read-only store (a full embedded disk) or a full disk. */
export const writeRefused = (error: unknown): boolean => {
  const state = sqlStateOf(error)
  return state === READ_ONLY_SQL_TRANSACTION || state === DISK_FULL
}

/** The advisory lock of the transactions that add tender events (`lockEventWriters`). */
const eventWritersLock = 7_020_311

/**
 * Taken by every transaction that adds tender events, before its first write, and held until it ends: the events'
 * ids are then given in the order their transactions commit. The alert evaluator reads the committed events after
 * its cursor and moves the cursor to the last it read, so an event committed after one with a higher id would be
 * passed and never read (a sweep's `closed` events committed while an ingest still wrote its `new` ones).
 */
export const lockEventWriters = (sql: Sql) => sql`SELECT pg_advisory_xact_lock(${eventWritersLock}::bigint)`
