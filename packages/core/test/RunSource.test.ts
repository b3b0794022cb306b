import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import {
  type FeedPage,
  type FeedStart,
  type ParsedNotice,
  runIfDue,
  runSource,
  SourceRunStore,
  sourceHealth,
  type SourceFeed,
  SourceUnavailable,
  TenderStore
} from "../src/index.ts"
import { MemoryDb, makeRecord } from "../src/testing/index.ts"
import { atStart, inDays, world } from "./support.ts"

const notice = (n: number): ParsedNotice => ({
  kind: "original",
  record: makeRecord({ id: `ted-${n}-2026`, deadline: inDays(10) }),
  procedureKey: `proc-${n}`,
  version: null,
  reason: null
})
const page = (n: number): FeedPage => ({ results: [{ notices: [notice(n)], rejected: [] }], cursor: `after-${n}` })

/** A feed that records where each run started, serves `pages`, then fails when `failAfter` pages were served. */
const fakeFeed = (pages: ReadonlyArray<FeedPage>, failAfter?: number) => {
  const starts: Array<FeedStart> = []
  const feed: SourceFeed = {
    source: "ted",
    pages: (start) => {
      starts.push(start)
      const served = Stream.fromIterable(pages.slice(0, failAfter ?? pages.length))
      return failAfter === undefined
        ? served
        : Stream.concat(
            served,
            Stream.fail(new SourceUnavailable({ source: "ted", message: "HTTP 503 after retries" }))
          )
    }
  }
  return { feed, starts }
}

describe("runSource and runIfDue", () => {
  it.effect("applies each page and saves its cursor before the next; the next run resumes from it", () =>
    Effect.gen(function* () {
      yield* atStart
      const { feed, starts } = fakeFeed([page(1), page(2)])
      const first = yield* runSource(feed, { owner: "test", since: null })
      assert.deepStrictEqual([first.error, first.summary.pages, first.summary.new], [null, 2, 2])
      yield* runSource(feed, { owner: "test", since: null })
      assert.deepStrictEqual(
        starts.map((s) => s.cursor),
        [null, "after-2"]
      )
      assert.strictEqual(yield* (yield* TenderStore).size, 2)
    }).pipe(Effect.provide(world()))
  )

  it.effect("records a source failure as the run's error, keeping what the pages before it applied", () =>
    Effect.gen(function* () {
      yield* atStart
      const { feed } = fakeFeed([page(1), page(2)], 1)
      const outcome = yield* runSource(feed, { owner: "test", since: null })
      assert.deepStrictEqual([outcome.error, outcome.summary.pages], ["HTTP 503 after retries", 1])
      assert.strictEqual(yield* (yield* SourceRunStore).loadCursor("ted"), "after-1")
      assert.strictEqual(yield* (yield* TenderStore).size, 1)
      const [run] = yield* (yield* SourceRunStore).recentRuns("ted", 1)
      assert.strictEqual(run?.error, "HTTP 503 after retries")
      const health = yield* sourceHealth
      assert.strictEqual(health.sources.find((s) => s.code === "ted")?.status, "error")
    }).pipe(Effect.provide(world()))
  )

  it.effect("runs a source when its slot is due, once per interval across replicas, and releases the slot after", () =>
    Effect.gen(function* () {
      yield* atStart
      const interval = Duration.hours(1)
      const { feed, starts } = fakeFeed([page(1), page(2), page(3)])
      assert.isNotNull(yield* runIfDue(feed, "replica-a", interval))
      assert.isNull(yield* runIfDue(feed, "replica-b", interval))
      yield* TestClock.adjust("59 minutes")
      assert.isNull(yield* runIfDue(feed, "replica-b", interval))
      yield* TestClock.adjust("1 minute")
      assert.isNotNull(yield* runIfDue(feed, "replica-b", interval))
      assert.strictEqual(starts.length, 2)
      const slot = (yield* MemoryDb).schedule.get("ted")
      assert.deepStrictEqual([slot?.owner, slot?.leaseUntil], [null, null])
    }).pipe(Effect.provide(world()))
  )

  it.effect("lets another replica take over a slot whose holder died, once its lease has expired", () =>
    Effect.gen(function* () {
      yield* atStart
      const runs = yield* SourceRunStore
      const { feed } = fakeFeed([page(1)])
      const interval = Duration.hours(1)
      // replica-a claimed the slot and died without releasing it.
      assert.isTrue(
        yield* runs.claim("ted", "replica-a", { until: DateTime.addDuration(yield* DateTime.now, "10 minutes") })
      )
      assert.isNull(yield* runIfDue(feed, "replica-b", interval))
      yield* TestClock.adjust("10 minutes")
      yield* TestClock.adjust("1 second")
      assert.isNotNull(yield* runIfDue(feed, "replica-b", interval))
    }).pipe(Effect.provide(world()))
  )
  it.effect("holds the slot for the lease it is given (TENDERS_SOURCE_LEASE) instead of the interval's", () =>
    Effect.gen(function* () {
      yield* atStart
      const db = yield* MemoryDb
      let leaseUntil: DateTime.Utc | null = null
      const feed: SourceFeed = {
        source: "ted",
        pages: () =>
          Stream.fromEffect(Effect.sync(() => (leaseUntil = db.schedule.get("ted")?.leaseUntil ?? null))).pipe(
            Stream.as(page(1))
          )
      }
      assert.isNotNull(yield* runIfDue(feed, "replica-a", Duration.hours(1), Duration.seconds(8)))
      const started = yield* DateTime.now
      assert.deepStrictEqual(leaseUntil, DateTime.addDuration(started, Duration.seconds(8)))
    }).pipe(Effect.provide(world()))
  )

  it.effect("renews the slot's lease after every page, so a long run is not taken over while it progresses", () =>
    Effect.gen(function* () {
      yield* atStart
      const db = yield* MemoryDb
      const leases: Array<number> = []
      // Each page takes 40 minutes; the lease (1 hour for an hourly source) would lapse during page 2 unrenewed.
      const slow: SourceFeed = {
        source: "ted",
        pages: () =>
          Stream.fromIterable([page(1), page(2), page(3)]).pipe(
            Stream.mapEffect((p) =>
              TestClock.adjust("40 minutes").pipe(
                Effect.tap(() =>
                  Effect.sync(() => {
                    const until = db.schedule.get("ted")?.leaseUntil
                    if (until) leases.push(DateTime.toEpochMillis(until))
                  })
                ),
                Effect.as(p)
              )
            )
          )
      }
      assert.isNotNull(yield* runIfDue(slow, "replica-a", Duration.hours(1)))
      const minutes = leases.map((l) => (l - Date.parse("2026-11-23T09:00:00Z")) / 60_000)
      assert.deepStrictEqual(minutes, [60, 100, 140])
    }).pipe(Effect.provide(world()))
  )
})
