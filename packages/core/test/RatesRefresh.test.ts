import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  importRates,
  type RatePublication,
  Rates,
  ratesCacheTtl,
  type RatesFeed,
  RatesStore,
  RatesUnavailable,
  refreshRatesIfDue,
  startBackgroundWork
} from "../src/index.ts"
import { memoryStore, notifierRecorder } from "../src/testing/index.ts"

/** Publications of the quarter 2027-Q1 (first business days: ECB 2027-01-04, CBR 2027-01-01, CBA 2027-01-03). */
const q1: ReadonlyArray<RatePublication> = [
  {
    publisher: "ECB",
    publishedOn: "2027-01-04",
    perEur: (["USD", "GBP", "CHF", "NOK", "ISK", "SEK", "DKK", "PLN", "CZK", "HUF", "RON"] as const).map(
      (currency) => ({
        currency,
        perEur: "2"
      })
    )
  },
  { publisher: "CBR", publishedOn: "2027-01-01", perEur: [{ currency: "RUB", perEur: "100" }] },
  { publisher: "CBA", publishedOn: "2027-01-03", perEur: [{ currency: "AMD", perEur: "400" }] }
]

/** A feed that counts its fetches and fails while `failing` is set. */
const countingFeed = () => {
  const state = { fetches: 0, failing: false }
  const feed: RatesFeed = {
    fetchQuarter: () =>
      Effect.suspend(() => {
        state.fetches++
        return state.failing
          ? Effect.fail(new RatesUnavailable({ message: "ECB: HTTP 503 (gave up after 5 attempts)" }))
          : Effect.succeed({ publications: q1, origins: { ECB: "https://example.test/ecb.xml" } })
      })
  }
  return { feed, state }
}

const settings = {
  tick: Duration.minutes(30),
  deliveryLease: Duration.minutes(2),
  webhookTimeout: Duration.seconds(10)
}
const intervals = { ted: Duration.hours(1), gnumner: Duration.hours(1), eaeu: Duration.hours(1) }
const world = Layer.mergeAll(
  memoryStore,
  notifierRecorder({}),
  Rates.fromStore(Rates.bundledRates).pipe(Layer.provide(memoryStore))
)
const at = (iso: string) => TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe(iso)))

describe("the quarterly rates refresh (TestClock)", () => {
  it.effect("imports once per quarter across two replicas, retries a failure, and the rates in use follow", () =>
    Effect.gen(function* () {
      yield* at("2027-01-05T08:00:00Z")
      const { feed, state } = countingFeed()
      state.failing = true
      const work = { feeds: [], owner: "replica-a", intervals, settings, rates: feed }
      yield* startBackgroundWork(work)
      yield* startBackgroundWork({ ...work, owner: "replica-b" })
      yield* TestClock.adjust("1 second")
      assert.strictEqual(state.fetches, 1)
      assert.strictEqual((yield* (yield* Rates).current).fallback, "the bundled table")
      state.failing = false
      yield* TestClock.adjust("30 minutes")
      // The failure is retried after an hour, by one replica.
      assert.strictEqual(state.fetches, 1)
      yield* TestClock.adjust("30 minutes")
      assert.strictEqual(state.fetches, 2)
      yield* TestClock.adjust(ratesCacheTtl)
      const rates = yield* (yield* Rates).current
      assert.strictEqual(rates.quarter, "2027-Q1")
      assert.isNull(rates.fallback)
      assert.strictEqual(rates.figures.find((f) => f.currency === "AMD")?.publishedOn, "2027-01-03")
      // No further fetch until the next quarter begins (2027-04-01), then one; it finds no 2027-Q2 publication
      // in this feed, so the next comes an hour later.
      for (let day = 0; day < 85; day++) yield* TestClock.adjust("1 day")
      assert.strictEqual(state.fetches, 2)
      while (state.fetches === 2) yield* TestClock.adjust("30 minutes")
      const firstTry = DateTime.formatIso(yield* DateTime.now)
      assert.isTrue(firstTry >= "2027-04-01T00:00" && firstTry < "2027-04-01T00:30", firstTry)
      yield* TestClock.adjust("30 minutes")
      assert.strictEqual(state.fetches, 3)
      yield* TestClock.adjust("30 minutes")
      assert.strictEqual(state.fetches, 4)
    }).pipe(Effect.scoped, Effect.provide(world))
  )

  it.effect(
    "fetches nothing when the current quarter is already stored, and releases the slot to the next quarter",
    () =>
      Effect.gen(function* () {
        yield* at("2027-02-01T00:00:00Z")
        yield* importRates("2027-Q1", { publications: q1, origins: {} })
        const { feed, state } = countingFeed()
        const outcome = yield* refreshRatesIfDue(feed, "replica-a")
        assert.strictEqual(outcome?._tag, "Current")
        assert.strictEqual(state.fetches, 0)
        assert.isNull(yield* refreshRatesIfDue(feed, "replica-b"))
        yield* at("2027-04-01T00:00:01Z")
        const next = yield* refreshRatesIfDue(feed, "replica-b")
        // 2027-Q2 has no publication among the feed's: refused, so retried later.
        assert.strictEqual(next?._tag, "Failed")
        assert.include(next?._tag === "Failed" ? next.message : "", "no publication on or after 2027-04-01 in 2027-Q2")
        assert.strictEqual(state.fetches, 1)
        assert.strictEqual((yield* (yield* RatesStore).latest).length, 15)
      }).pipe(Effect.provide(memoryStore))
  )
})
