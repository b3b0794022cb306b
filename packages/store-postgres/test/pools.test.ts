import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { AccountStore, type Account } from "@tenders/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { CounterClient } from "../src/CounterClient.ts"
import { layerSql, migrate, PgAccountStore, servingConnections } from "../src/index.ts"

const url = process.env["TEST_DATABASE_URL"] ?? ""

/**
 * The connections the store's pools open (those named `tenders <pid> …` started since, counted on a connection of the
 * test's own: a worker process may still hold an earlier test file's): one statement is run on the main pool, then
 * they are counted until `enough` of them were opened (10 s at most), or once after a second.
 */
const openedBy = (serving: boolean, enough?: number) =>
  Effect.gen(function* () {
    const probe = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1, applicationName: "probe" })
    const [{ since } = { since: "" }] = yield* probe<{ since: string }>`SELECT now()::text AS since`
    const opened = Effect.map(
      probe<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name LIKE ${`tenders ${process.pid} %`} AND backend_start >= ${since}::timestamptz`,
      (rows) => rows[0]?.n ?? 0
    )
    return yield* Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql`SELECT 1`
      if (enough === undefined) return yield* Effect.andThen(Effect.sleep("1 second"), opened)
      for (let tries = 0; tries < 100 && (yield* opened) < enough; tries++) yield* Effect.sleep("100 millis")
      return yield* opened
    }).pipe(Effect.provide(layerSql({ databaseUrl: url, dataDir: "", serving }).pipe(Layer.orDie)))
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer), Effect.orDie)

// The embedded store is one session behind its socket server: only PostgreSQL has pools to keep warm.
describe.skipIf(url.length === 0)("the store's connections to PostgreSQL", () => {
  it.live("a server's pools open their first connections at start, the bitmap's and counters' before any call", () =>
    Effect.gen(function* () {
      const wanted = servingConnections.main + servingConnections.bitmap + servingConnections.counter
      assert.strictEqual(yield* openedBy(true, wanted), wanted)
    })
  )

  it.live("a call's count commits on the counters' pool, whose sessions do not wait for the log's flush", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountStore
      const account: Account = yield* accounts.saveAccount({
        email: `counted-${process.pid}@example.com`,
        plan: "pro",
        monthlyLimit: 5
      })
      const { key } = yield* accounts.createKey(account.id, "rest")
      // The month's first call makes its row (`consumeCall`); the next is counted with the key's statement.
      yield* accounts.consumeCall(account.id, "2026-11-29", 5)
      const counted = yield* accounts.authenticateAndCount(key, "rest", "2026-11-29", { free: 1, pro: 1, business: 1 })
      const used = Option.map(
        Option.flatMap(counted, (found) => found.counted),
        (decision) => decision.used
      )
      assert.deepStrictEqual(used, Option.some(2))
      // The session whose last statement was the count is one of the counters' pool (named so).
      const main = yield* PgClient.PgClient
      const counting = yield* main<{ name: string }>`SELECT application_name AS name FROM pg_stat_activity
        WHERE application_name LIKE ${`tenders ${process.pid} %`} AND query LIKE '%UPDATE usage_months%'
          AND pid <> pg_backend_pid()`
      assert.deepStrictEqual(
        counting.map((row) => row.name.endsWith(" counters")),
        [true]
      )
      const counters = yield* Effect.serviceOption(CounterClient)
      assert.isTrue(Option.isSome(counters), "PostgreSQL's store has a counters' pool")
      if (Option.isNone(counters)) return
      const [session] = yield* counters.value<{ commit: string }>`
        SELECT current_setting('synchronous_commit') AS commit`
      assert.strictEqual(session?.commit, "off")
      const [{ commit } = { commit: "" }] = yield* main<{ commit: string }>`
        SELECT current_setting('synchronous_commit') AS commit`
      assert.strictEqual(commit, "on")
    }).pipe(
      Effect.provide(
        PgAccountStore.pipe(
          Layer.provideMerge(Layer.effectDiscard(Effect.orDie(migrate))),
          Layer.provideMerge(layerSql({ databaseUrl: url, dataDir: "", serving: false })),
          Layer.orDie
        )
      ),
      Effect.provide(Reactivity.layer)
    )
  )

  it.live("a command's store opens a connection only when a statement needs one", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* openedBy(false), 1)
    })
  )
})
