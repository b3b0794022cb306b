/**
 * The SQL client of every process on the embedded store, owner or not: a `PgClient` over the owner's
 * socket that survives the owner going away.
 *
 * An owner that exits ends its connections with 57P01 once the running transaction is over
 * (ExclusiveSocketServer.ts); one that crashes just closes them. Either way this client claims the store
 * again (Endpoint.ts: it takes the store over, or reaches the new owner) and sends again only what cannot
 * run twice:
 * - a statement or transaction whose connection could not be opened: nothing was sent;
 * - one answered with 57P01 or 57P03: the server ran nothing it had not answered, and rolled back;
 * - a transaction whose connection broke before its COMMIT was sent: PostgreSQL never commits without
 *   it, so the whole transaction runs again (as any retried transaction, its effect must be safe to run
 *   again up to its SQL);
 * - never a COMMIT, or a statement outside a transaction, whose connection broke while it ran: a crashed
 *   owner may have committed it, so the caller gets an error saying the outcome is unknown.
 * Streams are not sent again. A write refused because the disk is full (SQLSTATE 25006 from the owner's
 * read-only switch, or 53100) fails with a message saying so (DiskSpace.ts).
 *
 * The driver loses the SQLSTATE of a FATAL that reaches a statement in flight: it keeps the ErrorResponse
 * until a ReadyForQuery that never comes, and fails the statement with "Connection closed" when the socket
 * closes. So {@link connectSocket} reads the server's messages too and, once a FATAL was read, ends the
 * socket with an error carrying its SQLSTATE: a statement still waiting on a stopping owner fails with
 * 57P01 (not run, sent again) instead of "broken" (outcome unknown).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Option, Predicate, Stream } from "effect"
import * as Client from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as Net from "node:net"
import { withDiskState, writesRefusedMessage } from "./DiskSpace.ts"
import { describeCause } from "./EmbeddedStoreError.ts"
import type { EmbeddedStore } from "./Endpoint.ts"
import {
  ADMIN_SHUTDOWN,
  CANNOT_CONNECT_NOW,
  DISK_FULL,
  READ_ONLY_SQL_TRANSACTION,
  ReadyScanner
} from "./WireProtocol.ts"

/** Tries of one statement or transaction after the first: 20 ms apart, doubling up to 1 s; about 10 s in all. */
const MAX_RETRIES = 15
const RETRY_BASE_MS = 20
const RETRY_MAX_MS = 1000

/** The code of the error under a SqlError: PostgreSQL's SQLSTATE, or Node's for a socket error (`EPIPE`). */
const sqlState = (error: SqlError): string | undefined => {
  const cause = error.reason.cause
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
}

/**
 * `not-run`: nothing of it ran; `broken`: the connection broke while it ran; `other`: an ordinary error. A write
 * refused with `EPIPE` means the owner had closed the socket before the statement was sent: the owner answers every
 * statement it reads before it closes, so none of this one reached it (a reset while reading the answer stays
 * `broken`: the statement may have run).
 */
const outcome = (error: unknown): "not-run" | "broken" | "other" => {
  if (!(error instanceof SqlError)) return "other"
  const code = sqlState(error)
  if (code === ADMIN_SHUTDOWN || code === CANNOT_CONNECT_NOW) return "not-run"
  if (error.reason._tag !== "ConnectionError") return "other"
  return error.reason.operation === "connect" || code === "EPIPE" ? "not-run" : "broken"
}

const explained = (error: SqlError, message: string): SqlError =>
  new SqlError({ reason: new UnknownError({ cause: error, message, operation: error.reason.operation }) })

/** The message a caller gets for the failures this module knows the reason of. */
const explain =
  (store: EmbeddedStore, broken: string) =>
  <E>(error: E): E | SqlError => {
    if (!(error instanceof SqlError)) return error
    const code = sqlState(error)
    if (code === READ_ONLY_SQL_TRANSACTION) return explained(error, writesRefusedMessage(store.dataDir))
    if (code === DISK_FULL) return explained(error, withDiskState(store.dataDir, describeCause(error.reason.cause)))
    switch (outcome(error)) {
      case "broken":
        return explained(error, `${broken} (${describeCause(error.reason.cause)})`)
      case "not-run":
        return explained(
          error,
          `Cannot reach the embedded store in ${store.dataDir}: ${describeCause(error.reason.cause)}`
        )
      default:
        return error
    }
  }

const reclaim = (store: EmbeddedStore, seen: number): Effect.Effect<void, SqlError> =>
  Effect.mapError(
    store.reclaim(seen),
    (cause) => new SqlError({ reason: new UnknownError({ cause, message: cause.message, operation: "claim" }) })
  )

/**
 * Runs `attempt()` (made afresh each time) until it succeeds or fails with an error it does not call
 * retryable; before another try, the store is claimed again.
 */
const withFailover = <A, E, R>(
  store: EmbeddedStore,
  attempt: () => Attempt<A, E, R>
): Effect.Effect<A, E | SqlError, R> => {
  const run = (tries: number): Effect.Effect<A, E | SqlError, R> =>
    Effect.suspend(() => {
      const seen = store.generation()
      const { effect, retryable, broken } = attempt()
      return Effect.catch(effect, (error) =>
        tries < MAX_RETRIES && retryable(error)
          ? reclaim(store, seen).pipe(
              Effect.andThen(Effect.sleep(Math.min(RETRY_BASE_MS * 2 ** tries, RETRY_MAX_MS))),
              Effect.andThen(run(tries + 1))
            )
          : Effect.fail(explain(store, broken())(error))
      )
    })
  return run(0)
}

/** One try: what to run, which of its errors allow another, and what a broken connection means for it. */
interface Attempt<A, E, R> {
  readonly effect: Effect.Effect<A, E, R>
  readonly retryable: (error: E) => boolean
  readonly broken: () => string
}

const WENT_AWAY = "The tenders process serving the embedded store went away"

/** A connection for statements outside transactions: each runs on a pooled connection, sent again when safe. */
const autocommit = (store: EmbeddedStore, inner: PgClient.PgClient): Connection => {
  const run = <A>(f: (connection: Connection) => Effect.Effect<A, SqlError>) =>
    withFailover(store, () => ({
      effect: Effect.scoped(Effect.flatMap(inner.reserve, f)),
      retryable: (error: SqlError) => outcome(error) === "not-run",
      broken: () => `${WENT_AWAY} while this statement ran: it may or may not have been applied`
    }))
  return {
    execute: (sql, params, transformRows) => run((c) => c.execute(sql, params, transformRows)),
    executeRaw: (sql, params) => run((c) => c.executeRaw(sql, params)),
    executeValues: (sql, params) => run((c) => c.executeValues(sql, params)),
    executeValuesUnprepared: (sql, params) => run((c) => c.executeValuesUnprepared(sql, params)),
    executeUnprepared: (sql, params, transformRows) => run((c) => c.executeUnprepared(sql, params, transformRows)),
    executeStream: (sql, params, transformRows) =>
      Stream.unwrap(Effect.map(inner.reserve, (c) => c.executeStream(sql, params, transformRows)))
  }
}

/**
 * A connection to the owner's socket that ends with the SQLSTATE of the FATAL the owner sent (see the
 * module doc). The socket is ended after the driver has read the chunk that carried the FATAL (a
 * microtask later, before the socket's end is read): an answer in the same chunk still completes its
 * statement, and only a statement left waiting gets the FATAL's SQLSTATE.
 */
const connectSocket = (path: string): Net.Socket => {
  const socket = Net.connect({ path })
  const scanner = new ReadyScanner()
  socket.on("error", () => {}) // the driver's own listener reports it; this one only keeps an early one from throwing
  socket.on("data", (chunk: Buffer) => {
    if (scanner.fatal !== undefined) return
    scanner.push(chunk)
    if (scanner.fatal === undefined) return
    const farewell = Object.assign(new Error(scanner.fatal), { code: scanner.fatalCode })
    queueMicrotask(() => socket.destroy(farewell))
  })
  return socket
}

/**
 * A `PgClient` for `store` with a pool of `maxConnections`. Transactions are the pool client's own (same
 * transaction service, so statements inside one run on its connection); only the outermost is sent again.
 */
export const makeFailoverClient = Effect.fnUntraced(function* (store: EmbeddedStore, maxConnections: number) {
  const inner = yield* PgClient.make({
    username: "postgres",
    database: "postgres",
    ssl: false,
    stream: () => connectSocket(store.path()),
    maxConnections
  })
  const client = yield* Client.make({
    acquirer: Effect.succeed(autocommit(store, inner)),
    transactionAcquirer: inner.reserve,
    transactionService: inner.transactionService,
    compiler: PgClient.makeCompiler(),
    driver: "pg",
    spanAttributes: [["db.system.name", "postgresql"]]
  })
  const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.flatMap(Effect.serviceOption(inner.transactionService), (open) =>
      Option.isSome(open)
        ? inner.withTransaction(self)
        : withFailover(store, () => {
            let committing = false
            return {
              effect: inner.withTransaction(Effect.tap(self, () => Effect.sync(() => (committing = true)))),
              retryable: (error: E | SqlError) =>
                outcome(error) === "not-run" || (outcome(error) === "broken" && !committing),
              broken: () =>
                committing
                  ? `${WENT_AWAY} during COMMIT: the transaction may or may not have been applied`
                  : `${WENT_AWAY} during the transaction, again and again: it was not applied`
            }
          })
    )
  return Object.assign(client, {
    [PgClient.TypeId]: PgClient.TypeId,
    config: inner.config,
    json: inner.json,
    listen: inner.listen,
    notify: inner.notify,
    withTransaction
  }) satisfies PgClient.PgClient
})
