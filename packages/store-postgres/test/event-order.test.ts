import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { AlertStore, lifecycleResolverAt, NoticeStore, type ParsedNotice, TenderStore } from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { DateTime, Deferred, Effect, Fiber, Option } from "effect"
import { postgresStore } from "./backends.ts"

/**
 * What the alert evaluator does each tick: reads the events after its cursor, a batch at a time, and moves the
 * cursor to the last one it read. Returns the ids it read.
 */
const evaluatorReads = Effect.gen(function* () {
  const store = yield* AlertStore
  const read: Array<number> = []
  let cursor = yield* store.cursor
  while (true) {
    const events = yield* store.eventsAfter(cursor, 100)
    const last = events.at(-1)
    if (last === undefined) return read
    read.push(...events.map((event) => event.id))
    yield* store.insert([], last.id, () => [])
    cursor = last.id
  }
})

const url = process.env["TEST_DATABASE_URL"]
// The embedded store runs one transaction at a time: only PostgreSQL has writers whose commits can pass each other.
if (url !== undefined && url.length > 0) {
  describe("the tender events the alert evaluator reads, on PostgreSQL", () => {
    layer(postgresStore(url), { timeout: 120_000, excludeTestServices: true })((it) => {
      /**
       * An ingest (`write`, in a transaction that waits before committing) and the deadline sweep at the same time:
       * the evaluator, reading meanwhile and after, reads the ingest's `new` event for `tenderId`, and the sweep
       * waits for the ingest.
       */
      const ingestBesideSweep = (lapsedId: string, tenderId: string, write: Effect.Effect<unknown, never, never>) =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const tenders = yield* TenderStore
          yield* tenders.upsert([makeRecord({ id: lapsedId, deadline: isoFromNow(-0.5) })])
          yield* evaluatorReads
          const written = yield* Deferred.make<void>()
          const commit = yield* Deferred.make<void>()
          const ingest = yield* Effect.forkChild(
            sql.withTransaction(
              Effect.gen(function* () {
                yield* write
                yield* Deferred.succeed(written, undefined)
                yield* Deferred.await(commit)
              })
            )
          )
          // Written, or the ingest failed (its failure then ends the test).
          yield* Effect.raceFirst(Deferred.await(written), Fiber.join(ingest))
          const sweep = yield* Effect.forkChild(tenders.closeExpired)
          const swept = yield* Fiber.await(sweep).pipe(Effect.timeoutOption("1 second"))
          const before = yield* evaluatorReads
          yield* Deferred.succeed(commit, undefined)
          yield* Fiber.join(ingest)
          assert.strictEqual(yield* Fiber.join(sweep), 1)
          const after = yield* evaluatorReads
          const [newEvent] = yield* sql<{ readonly id: number }>`SELECT id::int AS id FROM tender_events
            WHERE tender_id = ${tenderId} AND change = 'new'`
          assert.include([...before, ...after], newEvent?.id)
          assert.isTrue(Option.isNone(swept))
          assert.deepStrictEqual(before, [])
        })

      it.effect("come in the order their writers committed: a sweep does not pass an ingest still writing", () =>
        Effect.flatMap(TenderStore, (tenders) =>
          ingestBesideSweep(
            "ted-640001-2026",
            "ted-640002-2026",
            tenders.upsert([makeRecord({ id: "ted-640002-2026", deadline: isoFromNow(5) })])
          )
        )
      )

      it.effect("and a sweep does not pass a notice still being applied", () =>
        Effect.gen(function* () {
          const notices = yield* NoticeStore
          const notice: ParsedNotice = {
            kind: "original",
            procedureKey: "order-1",
            version: null,
            reason: null,
            record: makeRecord({ id: "gnumner-order-1", source: "gnumner", deadline: isoFromNow(5) })
          }
          const resolver = lifecycleResolverAt(yield* DateTime.now)
          yield* ingestBesideSweep("ted-640003-2026", "gnumner-order-1", notices.applyNotices([notice], resolver))
        })
      )
    })
  })
}
