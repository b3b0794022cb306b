import { assert, describe, layer } from "@effect/vitest"
import { importRates, type RatePublication, Rates, RatesStore, type StoredRate } from "@tenders/core"
import { DateTime, Effect, Layer } from "effect"
import { backends } from "./backends.ts"

const figure = (
  quarter: string,
  currency: StoredRate["currency"],
  perEur: string,
  publishedOn: string
): StoredRate => ({
  quarter,
  currency,
  perEur,
  publisher: "European Central Bank",
  publishedOn,
  origin: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml",
  fetchedAt: "2027-01-04T16:05:00.000Z",
  official: true
})

const q1: ReadonlyArray<RatePublication> = [
  { publisher: "ECB", publishedOn: "2027-01-04", perEur: [{ currency: "USD", perEur: "1.04650" }] },
  { publisher: "CBR", publishedOn: "2027-01-11", perEur: [{ currency: "RUB", perEur: "127.2343" }] }
]

for (const [name, makeLayer] of backends()) {
  describe(`reference rates on ${name}`, () => {
    layer(Layer.provideMerge(Rates.fromStore(Rates.bundledRates), makeLayer()), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("uses the bundled table until rates are imported, then per currency its newest quarter's figure", () =>
        Effect.gen(function* () {
          const store = yield* RatesStore
          assert.deepStrictEqual(yield* store.latest, [])
          const before = yield* (yield* Rates).current
          assert.strictEqual(before.fallback, "the bundled table")
          assert.strictEqual(before.figures.length, 15)
          yield* store.save([
            figure("2026-Q4", "USD", "1.1", "2026-10-01"),
            figure("2026-Q4", "GBP", "0.85", "2026-10-01")
          ])
          const imported = yield* importRates("2027-Q1", { publications: q1, origins: { CBR: "saved/cbr.xml" } })
          assert.deepStrictEqual(imported.missing, [
            "GBP",
            "CHF",
            "NOK",
            "ISK",
            "SEK",
            "DKK",
            "PLN",
            "CZK",
            "HUF",
            "RON",
            "AMD"
          ])
          const latest = yield* store.latest
          const of = (currency: string) => latest.find((f) => f.currency === currency)
          assert.strictEqual(of("USD")?.perEur, "1.04650")
          assert.strictEqual(of("USD")?.quarter, "2027-Q1")
          assert.strictEqual(of("GBP")?.quarter, "2026-Q4")
          assert.strictEqual(of("RUB")?.perEur, "127.2343")
          assert.strictEqual(of("RUB")?.publishedOn, "2027-01-11")
          assert.strictEqual(of("RUB")?.origin, "saved/cbr.xml")
          assert.strictEqual(of("RUB")?.publisher, "Bank of Russia")
          assert.strictEqual(of("BGN")?.perEur, "1.95583")
          assert.strictEqual(latest.length, 5)
          // The same quarter imported again replaces its figures.
          yield* store.save([figure("2027-Q1", "USD", "1.0389", "2027-01-04")])
          assert.strictEqual((yield* store.latest).find((f) => f.currency === "USD")?.perEur, "1.0389")
        })
      )

      it.effect("lets exactly one of many concurrent replicas claim the refresh, and none before it is due again", () =>
        Effect.gen(function* () {
          const store = yield* RatesStore
          const until = DateTime.addDuration(yield* DateTime.now, "10 minutes")
          const claims = yield* Effect.all(
            Array.from({ length: 12 }, (_, i) => store.claimRefresh(`replica-${i}`, { until })),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(claims.filter((c) => c).length, 1)
          const winner = `replica-${claims.indexOf(true)}`
          yield* store.releaseRefresh("replica-other", DateTime.addDuration(yield* DateTime.now, "-1 minute"))
          assert.isFalse(yield* store.claimRefresh("replica-late", { until }))
          yield* store.releaseRefresh(winner, DateTime.addDuration(yield* DateTime.now, "1 hour"))
          assert.isFalse(yield* store.claimRefresh("replica-late", { until }))
          yield* store.releaseRefresh("replica-late", DateTime.addDuration(yield* DateTime.now, "-1 hour"))
          assert.isFalse(yield* store.claimRefresh("replica-late", { until }))
        })
      )
    })
  })
}
