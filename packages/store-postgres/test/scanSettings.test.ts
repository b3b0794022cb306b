import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Option } from "effect"
import { BitmapClient } from "../src/ScanSettings.ts"
import { embeddedStore, postgresStore } from "./backends.ts"

// A search's bitmap-only statements (NearestTenders.ts) run, on PostgreSQL, on a pool whose sessions have the settings
// from their start, so they need no transaction nor set_config; the main pool keeps PostgreSQL's defaults. The
// embedded store, one session, has no such pool: its searches set them in a transaction.

const settingsOf = (sql: PgClient.PgClient) =>
  Effect.map(
    sql<{ seq: string; index: string; plans: string }>`SELECT current_setting('enable_seqscan') AS seq,
      current_setting('enable_indexscan') AS index, current_setting('plan_cache_mode') AS plans`,
    (rows) => rows[0]
  )

describe("the scan settings of a search's statements", () => {
  const url = process.env["TEST_DATABASE_URL"]
  it.live.skipIf(url === undefined || url.length === 0)(
    "on PostgreSQL, bitmap-only in the bitmap pool's sessions, the defaults in the main pool's",
    () =>
      Effect.gen(function* () {
        const bitmap = yield* Effect.serviceOption(BitmapClient)
        assert.isTrue(Option.isSome(bitmap))
        if (Option.isNone(bitmap)) return
        assert.deepStrictEqual(yield* settingsOf(bitmap.value), {
          seq: "off",
          index: "off",
          plans: "force_generic_plan"
        })
        assert.deepStrictEqual(yield* settingsOf(yield* PgClient.PgClient), { seq: "on", index: "on", plans: "auto" })
      }).pipe(Effect.provide(postgresStore(url ?? "")))
  )

  it.live("embedded, no bitmap pool: the one session keeps the defaults", () =>
    Effect.gen(function* () {
      assert.isTrue(Option.isNone(yield* Effect.serviceOption(BitmapClient)))
      assert.deepStrictEqual(yield* settingsOf(yield* PgClient.PgClient), { seq: "on", index: "on", plans: "auto" })
    }).pipe(Effect.provide(embeddedStore()))
  )
})
