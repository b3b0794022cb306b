import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { layerSql, servingConnections } from "../src/index.ts"

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
  it.live("a server's pools open their first connections at start, the bitmap pool's before any search", () =>
    Effect.gen(function* () {
      const wanted = servingConnections.main + servingConnections.bitmap
      assert.strictEqual(yield* openedBy(true, wanted), wanted)
    })
  )

  it.live("a command's store opens a connection only when a statement needs one", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* openedBy(false), 1)
    })
  )
})
