import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import {
  createWatchlist,
  type SourceFeed,
  sourceHealth,
  SourceUnavailable,
  startBackgroundWork,
  TenderStore
} from "../src/index.ts"
import { MemoryDb, makeRecord, RecordedNotifications } from "../src/testing/index.ts"
import { account, atStart, inDays, world } from "./support.ts"

const settings = { tick: Duration.seconds(1), deliveryLease: Duration.minutes(2), webhookTimeout: Duration.seconds(10) }
const intervals = { ted: Duration.seconds(10), gnumner: Duration.hours(1), eaeu: Duration.hours(1) }

/** A TED feed with nothing new that counts its runs, and fails while `failing` is set. */
const countingFeed = () => {
  const state = { runs: 0, failing: false }
  const feed: SourceFeed = {
    source: "ted",
    pages: () =>
      Stream.suspend(() => {
        state.runs++
        return state.failing
          ? Stream.fail(new SourceUnavailable({ source: "ted", message: "HTTP 503" }))
          : Stream.make({ results: [], cursor: null })
      })
  }
  return { feed, state }
}

const tedStatus = Effect.map(sourceHealth, (report) => report.sources.find((s) => s.code === "ted")?.status)

describe("background work of a fleet (TestClock)", () => {
  it.effect("runs each scheduled ingestion once per interval across two replicas, and health follows the source", () =>
    Effect.gen(function* () {
      yield* atStart
      const { feed, state } = countingFeed()
      yield* startBackgroundWork({ feeds: [feed], owner: "replica-a", intervals, settings })
      yield* startBackgroundWork({ feeds: [feed], owner: "replica-b", intervals, settings })
      yield* TestClock.adjust("1 second")
      assert.strictEqual(state.runs, 1)
      assert.strictEqual(yield* tedStatus, "ok")
      for (let s = 0; s < 35; s++) yield* TestClock.adjust("1 second")
      // t = 36 s: the slots at 0, 10, 20 and 30 s ran, once each, whichever replica took them.
      assert.strictEqual(state.runs, 4)
      state.failing = true
      for (let s = 0; s < 10; s++) yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* tedStatus, "error")
      state.failing = false
      for (let s = 0; s < 10; s++) yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* tedStatus, "ok")
      assert.strictEqual(state.runs, 6)
    }).pipe(Effect.scoped, Effect.provide(world()))
  )

  it.effect("sweeps every tick in order: closes lapsed tenders, raises alerts, delivers them", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* createWatchlist({ name: "Ferries", filters: { q: "ferry" } }, owner)
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([
        makeRecord({ id: "ted-1-2026", title: "Ferry repairs", deadline: inDays(3) }),
        makeRecord({ id: "ted-2-2026", title: "Ferry fuel", deadline: inDays(0.5 / 24 / 60) })
      ])
      yield* startBackgroundWork({ feeds: [], owner: "replica-a", intervals, settings })
      yield* TestClock.adjust("1 minute")
      const db = yield* MemoryDb
      // The tender whose deadline had passed was closed by the sweep and raised no alert.
      assert.strictEqual(db.tenders.get("ted-2-2026")?.status, "closed")
      assert.deepStrictEqual(
        db.alerts.map((a) => [a.tenderId, a.reason]),
        [["ted-1-2026", "new"]]
      )
      const sent = (yield* RecordedNotifications).emails
      assert.deepStrictEqual(
        sent.map((digest) => digest.alerts.map((a) => a.tender.id)),
        [["ted-1-2026"]]
      )
    }).pipe(Effect.scoped, Effect.provide(world()))
  )
})
