import type { PgClient } from "@effect/sql-pg"
import { Context } from "effect"

/**
 * The session setting the quota's counts are committed with: without waiting for the write-ahead log to reach the
 * disk (`synchronous_commit` off; PostgreSQL writes it within three `wal_writer_delay`s, 600 ms by default). The
 * counts of one key's calls update one row, whose lock a call holds until it commits: waiting for a flush at each
 * commit made every call of a key wait for the flushes of the calls before it (a key's calls a second bounded by the
 * disk's flushes, and PostgreSQL's CPU a request a third higher on the bench). What it risks: a crash of PostgreSQL
 * itself (not of a replica) loses the counts of its last fraction of a second, calls served and not counted; a later
 * commit made the ordinary way (an account, a key, a pack) makes every count before it durable, so nothing else is
 * lost or out of order.
 */
export const countsCommitted = { synchronous_commit: "off" } as const

/**
 * On PostgreSQL, a pool of its own whose sessions commit so (SessionPool.ts; its sessions' names end in ` counters`):
 * the quota's counting statements run there (PgAccountStore), every other statement on the main pool. The embedded
 * store, one session behind its socket server and a process of its own, has none.
 */
export class CounterClient extends Context.Service<CounterClient, PgClient.PgClient>()(
  "@tenders/store-postgres/CounterClient"
) {}
