/**
 * The SQL client of every process on the embedded store, owner or not: a `PgClient` over the owner's
 * socket that survives the owner going away.
 *
 * An owner that exits ends its connections with 57P01 once the running transaction is over
 * (ExclusiveSocketServer.ts); one that is killed just closes them. Either way this client claims the store
 * again (Endpoint.ts: it takes the store over, or reaches the new owner) and sends again (Failover.ts) what
 * was not applied:
 * - a statement or transaction whose connection could not be opened: nothing was sent;
 * - one answered with 57P01 or 57P03: the server ran nothing it had not answered, and rolled back;
 * - a transaction whose connection broke before its COMMIT was sent: PostgreSQL never commits without
 *   it, so the whole transaction runs again (as any retried transaction, its effect must be safe to run
 *   again up to its SQL);
 * - a transaction whose connection broke during its COMMIT, if the next owner says it did not commit: it
 *   learnt its id before the COMMIT, and asks (EmbeddedTransaction.ts). One that committed is not sent again,
 *   and one whose fate the store cannot tell fails saying so.
 * A statement outside a transaction runs in a transaction of its own, so the same holds for it; one that
 * PostgreSQL refuses inside a transaction (`VACUUM`) runs alone, and fails saying its outcome is unknown if its
 * connection broke while it ran. Streams are not sent again. A write refused because the disk is full
 * (SQLSTATE 25006 from the owner's read-only switch, or 53100) fails with a message saying so (DiskSpace.ts).
 *
 * The driver loses the SQLSTATE of a FATAL that reaches a statement in flight: it keeps the ErrorResponse
 * until a ReadyForQuery that never comes, and fails the statement with "Connection closed" when the socket
 * closes. So {@link connectSocket} reads the server's messages too and, once a FATAL was read, ends the
 * socket with an error carrying its SQLSTATE: a statement still waiting on a stopping owner fails with
 * 57P01 (not run, sent again) instead of "broken".
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Option, Stream } from "effect"
import * as Client from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import type { SqlError } from "effect/sql/SqlError"
import * as Net from "node:net"
import { inOwnTransaction, makeTransaction, outcome, sqlState, transactionId } from "./EmbeddedTransaction.ts"
import type { EmbeddedStore } from "./Endpoint.ts"
import { again, fail, makeExactlyOnce, WENT_AWAY, withFailover } from "./Failover.ts"
import { poolUsageKey, PoolUse } from "./PoolUse.ts"
import { ReadyScanner } from "./WireProtocol.ts"

/** SQLSTATE active_sql_transaction: what `VACUUM` and the like answer inside a transaction. */
const ACTIVE_SQL_TRANSACTION = "25001"

/**
 * A connection for statements outside transactions: each runs on a pooled connection in a transaction of its own,
 * sent again as a transaction is; one PostgreSQL refuses in a transaction runs alone, sent again only if not run.
 */
const autocommit = (
  store: EmbeddedStore,
  inner: PgClient.PgClient,
  exactlyOnce: ReturnType<typeof makeExactlyOnce>,
  use: PoolUse
): Connection => {
  const alone = <A>(f: (connection: Connection) => Effect.Effect<A, SqlError>) =>
    withFailover(store, () => ({
      effect: Effect.scoped(Effect.flatMap(inner.reserve, f)),
      next: (error: SqlError) => (outcome(error) === "not-run" ? again : fail),
      broken: `${WENT_AWAY} while this statement ran: it may or may not have been applied`
    }))
  const run = <A>(f: (connection: Connection) => Effect.Effect<A, SqlError>) =>
    use.count(
      Effect.catchIf(
        exactlyOnce(
          inOwnTransaction(inner, f),
          `${WENT_AWAY} while this statement ran, again and again: it was not applied`
        ),
        (error) => sqlState(error) === ACTIVE_SQL_TRANSACTION,
        () => alone(f)
      )
    )
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
 * A `PgClient` for `store` with a pool of `maxConnections`. Transactions use the pool client's transaction service
 * (statements inside one run on its connection); only the outermost is sent again.
 */
export const makeFailoverClient = Effect.fnUntraced(function* (store: EmbeddedStore, maxConnections: number) {
  const use = new PoolUse()
  const inner = yield* PgClient.make({
    username: "postgres",
    database: "postgres",
    ssl: false,
    stream: () => use.track(connectSocket(store.path())),
    maxConnections
  })
  const exactlyOnce = makeExactlyOnce(store, inner)
  const transaction = makeTransaction(inner)
  const client = yield* Client.make({
    acquirer: Effect.succeed(autocommit(store, inner, exactlyOnce, use)),
    transactionAcquirer: inner.reserve,
    transactionService: inner.transactionService,
    compiler: PgClient.makeCompiler(),
    driver: "pg",
    spanAttributes: [["db.system.name", "postgresql"]]
  })
  const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.flatMap(Effect.serviceOption(inner.transactionService), (open) =>
      Option.isSome(open)
        ? transaction(self)
        : use.count(
            exactlyOnce(
              (learnt) =>
                transaction(
                  Effect.tap(self, (result) => Effect.map(transactionId(inner), (xid) => learnt({ xid, result })))
                ),
              `${WENT_AWAY} during the transaction, again and again: it was not applied`
            )
          )
    )
  return Object.assign(client, {
    [PgClient.TypeId]: PgClient.TypeId,
    config: inner.config,
    json: inner.json,
    listen: inner.listen,
    notify: inner.notify,
    withTransaction,
    [poolUsageKey]: () => use.usage()
  }) satisfies PgClient.PgClient
})
