import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { layerSql, servingConnections } from "../src/index.ts"

const url = process.env["TEST_DATABASE_URL"] ?? ""

/** How many connections this process holds under the application name the store's pools give (`tenders <pid> …`). */
const connectionsOfThisProcess = Effect.gen(function* () {
  const probe = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1, applicationName: "probe" })
  const rows = yield* probe<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE application_name LIKE ${`tenders ${process.pid} %`}`
  return rows[0]?.n ?? 0
}).pipe(Effect.scoped, Effect.provide(Reactivity.layer), Effect.orDie)

/**
 * The connections the store's pools add to this process's: one statement is run on the main pool, then they are
 * counted until `enough` of them were added (10 s at most), or once after a second.
 */
const addedBy = (serving: boolean, enough?: number) =>
  Effect.gen(function* () {
    const before = yield* connectionsOfThisProcess
    const added = Effect.map(connectionsOfThisProcess, (n) => n - before)
    return yield* Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql`SELECT 1`
      if (enough === undefined) return yield* Effect.andThen(Effect.sleep("1 second"), added)
      for (let tries = 0; tries < 100 && (yield* added) < enough; tries++) yield* Effect.sleep("100 millis")
      return yield* added
    }).pipe(Effect.provide(layerSql({ databaseUrl: url, dataDir: "", serving }).pipe(Layer.orDie)))
  }).pipe(Effect.scoped)

// The embedded store is one session behind its socket server: only PostgreSQL has pools to keep warm.
describe.skipIf(url.length === 0)("the store's connections to PostgreSQL", () => {
  it.live("a server's pools open their first connections at start, the bitmap pool's before any search", () =>
    Effect.gen(function* () {
      const wanted = servingConnections.main + servingConnections.bitmap
      assert.strictEqual(yield* addedBy(true, wanted), wanted)
    })
  )

  it.live("a command's store opens a connection only when a statement needs one", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* addedBy(false), 1)
    })
  )
})
