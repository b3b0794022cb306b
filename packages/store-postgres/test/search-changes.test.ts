import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { SearchChanges, TenderStore } from "@tenders/core"
import { makeRecord } from "@tenders/core/testing"
import { Effect, Layer, Option, Schedule } from "effect"
import { PgSearchChanges } from "../src/PgSearchChanges.ts"
import { searchInputTables } from "../src/migrations/SearchChanges.ts"
import { postgresStore } from "./backends.ts"

/** The generation once the listener is confirmed (polled: it is confirmed in the background). */
const current = Effect.flatMap(SearchChanges, (changes) =>
  changes.generation.pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail("not listening"), onSome: Effect.succeed })),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 500 })
  )
)

/** Waits for the generation to move past `from` (PostgreSQL sends the notice just after the commit). */
const movedPast = (from: number) =>
  current.pipe(
    Effect.filterOrFail(
      (generation) => generation > from,
      () => "not moved"
    ),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 250 })
  )

const url = process.env["TEST_DATABASE_URL"]
// The change feed exists on PostgreSQL only: the embedded store's one shared session cannot LISTEN.
if (url !== undefined && url.length > 0) {
  describe("the search's change feed on PostgreSQL", () => {
    const store = postgresStore(url)
    layer(Layer.provideMerge(PgSearchChanges, store), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("moves after a committed write to a table a search reads, whichever connection made it", () =>
        Effect.gen(function* () {
          const start = yield* current
          yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026" })])
          const afterTender = yield* movedPast(start)
          const sql = yield* PgClient.PgClient
          for (const table of searchInputTables) {
            const before = yield* current
            // A statement that changes no row still says the table was written: one notice per statement's commit.
            yield* sql.unsafe(`DELETE FROM ${table} WHERE false`)
            assert.isAbove(yield* movedPast(before), before, table)
          }
          assert.isAbove(afterTender, start)
        })
      )

      it.effect("does not move for a write the search does not read, nor for an uncommitted one", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const before = yield* current
          yield* sql`INSERT INTO accounts (id, email, plan, created_at)
            VALUES ('00000000-0000-4000-8000-0000000000aa', 'feed@example.org', 'free', now())`
          yield* sql
            .withTransaction(Effect.andThen(sql`DELETE FROM tenders WHERE false`, Effect.fail("rolled back" as const)))
            .pipe(Effect.flip)
          yield* Effect.sleep("300 millis")
          assert.strictEqual(yield* current, before)
        })
      )

      it.effect("says nothing while its listener is lost, and moves once it listens again", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const changes = yield* SearchChanges
          const before = yield* current
          yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query ILIKE 'LISTEN%'`
          // Notices sent while it was away are lost: the generation the feed gives next is a new one.
          const lost = yield* changes.generation.pipe(
            Effect.repeat({ until: Option.isNone, schedule: Schedule.spaced("10 millis"), times: 500 })
          )
          assert.isTrue(Option.isNone(lost))
          assert.isAbove(yield* current, before)
        })
      )
    })
  })
}
