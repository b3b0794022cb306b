/**
 * The transactions of the embedded store's client (FailoverClient.ts), made so that what became of one whose
 * owner was killed during its COMMIT can be learnt from the next owner.
 *
 * - Before its COMMIT is sent, a transaction asks its own id (`pg_current_xact_id_if_assigned()`: none if it
 *   wrote nothing) and, if it has one, flushes the WAL up to there (`pg_logical_emit_message(..., flush)`). PGlite
 *   writes its WAL into the data directory's files, which a killed process leaves behind, so every next owner
 *   replays that id: no later transaction is given it, and `pg_xact_status` there says whether it committed
 *   (a transaction cut off before its commit record reads `aborted`).
 * - A ROLLBACK whose connection is lost is not an error: the owner rolls back the transaction of a connection
 *   that goes away, and a killed one never committed it. The SQL client's own transactions make that failure a
 *   defect, which would hide the transaction's own error (its connection broke) from the failover.
 */
import type * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Predicate } from "effect"
import * as Client from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { refusedBeforeRunning } from "./WireProtocol.ts"

/** The code of the error under a SqlError: PostgreSQL's SQLSTATE, or Node's for a socket error (`EPIPE`). */
export const sqlState = (error: unknown): string | undefined => {
  if (!(error instanceof SqlError)) return undefined
  const cause = error.reason.cause
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
}

/**
 * `not-run`: nothing of it ran; `broken`: the connection broke while it ran; `other`: an ordinary error. A write
 * refused with `EPIPE` means the owner had closed the socket before the statement was sent: the owner answers every
 * statement it reads before it closes, so none of this one reached it (a reset while reading the answer stays
 * `broken`: the statement may have run).
 */
export const outcome = (error: unknown): "not-run" | "broken" | "other" => {
  if (!(error instanceof SqlError)) return "other"
  const code = sqlState(error)
  if (refusedBeforeRunning(code)) return "not-run"
  if (error.reason._tag !== "ConnectionError") return "other"
  return error.reason.operation === "connect" || code === "EPIPE" ? "not-run" : "broken"
}

/** Runs a ROLLBACK-like statement; a lost connection has nothing left to roll back. */
const unlessLost = (statement: Effect.Effect<unknown, SqlError>): Effect.Effect<void, SqlError> =>
  Effect.catchIf(
    Effect.asVoid(statement),
    (error) => outcome(error) !== "other",
    () => Effect.void
  )

const control = (conn: Connection, sql: string) => Effect.asVoid(conn.execute(sql, [], undefined))

/** COMMIT, failing as `PgClient`'s does when PostgreSQL answers it with ROLLBACK (the transaction had failed). */
const commit = (conn: Connection): Effect.Effect<void, SqlError> =>
  Effect.flatMap(conn.executeRaw("COMMIT", []), (result) =>
    Predicate.hasProperty(result, "command") && result.command === "ROLLBACK"
      ? Effect.fail(
          new SqlError({
            reason: new UnknownError({
              cause: new Error("COMMIT rolled back an aborted transaction"),
              message: "COMMIT rolled back an aborted transaction",
              operation: "commit"
            })
          })
        )
      : Effect.void
  )

/** `withTransaction` over `inner`'s connections and transaction service (nested ones are savepoints). */
export const makeTransaction = (inner: PgClient.PgClient) =>
  Client.makeWithTransaction({
    transactionService: inner.transactionService,
    spanAttributes: [["db.system.name", "postgresql"]],
    acquireConnection: (restore) => restore(inner.reserve),
    begin: (conn, statement) =>
      statement === undefined
        ? control(conn, "BEGIN")
        : Effect.asVoid(conn.executeUnprepared(statement, [], undefined)),
    savepoint: (conn, id) => control(conn, `SAVEPOINT effect_sql_${id}`),
    releaseSavepoint: (conn, id) => unlessLost(control(conn, `RELEASE SAVEPOINT effect_sql_${id}`)),
    commit,
    rollback: (conn) => unlessLost(control(conn, "ROLLBACK")),
    rollbackSavepoint: (conn, id) => unlessLost(control(conn, `ROLLBACK TO SAVEPOINT effect_sql_${id}`))
  })

/** The id of the open transaction (of `inner`'s transaction service), its WAL flushed; null if it wrote nothing. */
export const transactionId = (inner: PgClient.PgClient): Effect.Effect<string | null, SqlError> =>
  Effect.map(
    inner<{ readonly xid: string | null }>`SELECT x::text AS xid,
        CASE WHEN x IS NOT NULL THEN pg_logical_emit_message(false, 'tenders', '', true)::text END AS flushed
      FROM pg_current_xact_id_if_assigned() AS x`,
    (rows) => rows[0]?.xid ?? null
  )

/**
 * What the store says became of transaction `xid`: `committed`, `aborted`, `future` (no transaction got that id:
 * it never committed), or `in progress` / null (too old to tell).
 */
export const transactionStatus = (inner: PgClient.PgClient, xid: string): Effect.Effect<string | null, SqlError> =>
  Effect.map(
    inner<{ readonly status: string | null }>`SELECT CASE WHEN ${xid}::xid8 < pg_snapshot_xmax(pg_current_snapshot())
        THEN pg_xact_status(${xid}::xid8) ELSE 'future' END AS status`,
    (rows) => rows[0]?.status ?? null
  )

/** What a transaction had done when its COMMIT was sent: its id (null if it wrote nothing) and its result. */
export interface Committing<A> {
  readonly xid: string | null
  readonly result: A
}

/**
 * `f` on a connection of its own, in a transaction of its own, interruptible only while `f` runs (as in
 * `makeTransaction`); `learnt` is told its id and result just before its COMMIT is sent.
 */
export const inOwnTransaction =
  <A>(inner: PgClient.PgClient, f: (conn: Connection) => Effect.Effect<A, SqlError>) =>
  (learnt: (committing: Committing<A>) => void): Effect.Effect<A, SqlError> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.scoped(
        Effect.gen(function* () {
          const conn = yield* restore(inner.reserve)
          const rollback = () => Effect.orDie(unlessLost(control(conn, "ROLLBACK")))
          yield* control(conn, "BEGIN")
          const result = yield* Effect.onError(restore(f(conn)), rollback)
          const xid = yield* transactionId(inner).pipe(
            Effect.provideService(inner.transactionService, [conn, 0]),
            Effect.onError(rollback)
          )
          learnt({ xid, result })
          yield* commit(conn)
          return result
        })
      )
    )
