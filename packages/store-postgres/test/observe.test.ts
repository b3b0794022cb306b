import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { DeliveryStore, StorePool } from "@tenders/core"
import { DateTime, Deferred, Effect, Fiber } from "effect"
import { backends } from "./backends.ts"

/** A pending e-mail delivery due `secondsFromNow` from now (negative: overdue). */
const queue = (secondsFromNow: number) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`INSERT INTO deliveries (channel, account_id, target, payload, next_attempt_at, created_at)
      VALUES ('email', '00000000-0000-4000-8000-000000000001', 'ops@example.com', '{}'::jsonb,
        now() + make_interval(secs => ${secondsFromNow}), now())`
  )

for (const [name, makeLayer] of backends()) {
  describe(`what the metrics read from the store on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("the outbox's backlog: pending deliveries, and the due time of the oldest due one", () =>
        Effect.gen(function* () {
          const deliveries = yield* DeliveryStore
          const empty = yield* deliveries.backlog(yield* DateTime.now)
          assert.deepStrictEqual(empty, { depth: 0, oldestDueAt: null })
          yield* queue(-90)
          yield* queue(-30)
          yield* queue(3600)
          const now = yield* DateTime.now
          const backlog = yield* deliveries.backlog(now)
          assert.strictEqual(backlog.depth, 3)
          const age = (DateTime.toEpochMillis(now) - DateTime.toEpochMillis(backlog.oldestDueAt ?? now)) / 1000
          assert.isAtLeast(age, 89)
          assert.isBelow(age, 200)
        })
      )

      it.effect("this process's connections: one in use while a transaction holds it, none once it ended", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const pool = yield* StorePool
          const started = yield* Deferred.make<void>()
          const finish = yield* Deferred.make<void>()
          const holder = yield* Effect.forkChild(
            sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`SELECT 1`
                yield* Deferred.succeed(started, undefined)
                yield* Deferred.await(finish)
              })
            )
          )
          yield* Deferred.await(started)
          const during = yield* pool.usage
          yield* Deferred.succeed(finish, undefined)
          yield* Fiber.join(holder)
          const after = yield* pool.usage
          assert.isAtLeast(during?.inUse ?? -1, 1)
          assert.strictEqual(after?.inUse, 0)
          assert.isAtLeast(after?.idle ?? -1, 1)
        })
      )
    })
  })
}
