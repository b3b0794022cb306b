import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { AccountId, AlertStore, DeliveryStore, SourceRunStore } from "@tenders/core"
import { Effect } from "effect"
import { backends } from "./backends.ts"

const account = AccountId.make("00000000-0000-4000-8000-0000000000a1")

/** Moves a table's id sequence so that its next ids cross from five digits to six (99,996 … 100,005). */
const nearDigitBoundary = (sequence: string) =>
  Effect.flatMap(PgClient.PgClient, (sql) => sql`SELECT setval(${sequence}, 99995)`)

// The statements select `id::text AS id`: a bare `ORDER BY id` names that text, not the number, and sorts 100000
// before 99996. Each list below crosses that boundary.
for (const [name, makeLayer] of backends()) {
  describe(`ids in numeric order past a digit boundary on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("the alert evaluator's events come in id order, so its cursor skips none", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("tender_events_id_seq")
          yield* sql`INSERT INTO tender_events (tender_id, change, created_at)
            SELECT 'ted-' || i || '-2026', 'new', now() FROM generate_series(1, 10) AS i`
          const store = yield* AlertStore
          const first = yield* store.eventsAfter(99_995, 4)
          assert.deepStrictEqual(
            first.map((event) => event.id),
            [99_996, 99_997, 99_998, 99_999]
          )
          const rest = yield* store.eventsAfter(first.at(-1)?.id ?? 0, 100)
          assert.deepStrictEqual(
            rest.map((event) => event.id),
            [100_000, 100_001, 100_002, 100_003, 100_004, 100_005]
          )
        })
      )

      it.effect("the newest deliveries come first", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("deliveries_id_seq")
          yield* sql`INSERT INTO deliveries (channel, account_id, target, payload, next_attempt_at, created_at)
            SELECT 'email', ${account}::uuid, 'ops@example.com', '{}'::jsonb, now(), now()
            FROM generate_series(1, 10)`
          const newest = yield* (yield* DeliveryStore).list(3, account)
          assert.deepStrictEqual(
            newest.map((delivery) => delivery.id),
            [100_005, 100_004, 100_003]
          )
        })
      )

      it.effect("a source's runs started at the same instant come newest id first", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("source_runs_id_seq")
          yield* sql`INSERT INTO source_runs (source, started_at)
            SELECT 'gnumner', '2026-11-01T00:00:00Z'::timestamptz FROM generate_series(1, 6)`
          const runs = yield* (yield* SourceRunStore).recentRuns("gnumner", 3)
          assert.deepStrictEqual(
            runs.map((run) => run.id),
            [100_001, 100_000, 99_999]
          )
        })
      )
    })
  })
}
