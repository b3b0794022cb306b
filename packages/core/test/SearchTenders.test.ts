import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Ref } from "effect"
import { Rates, searchTenders, type SourceRunSummary, TenderStore } from "../src/index.ts"
import {
  isoFromNow,
  makeRecord,
  SearchTextSimple,
  SourceStatusStoreEmpty,
  sourceStatusStoreMemory,
  TenderStoreMemory
} from "../src/testing/index.ts"

const Test = Layer.mergeAll(TenderStoreMemory, SourceStatusStoreEmpty, Rates.bundled, SearchTextSimple)

describe("searchTenders", () => {
  it.live("returns at most the default 10 open tenders, nearest deadline first, and no hint when full", () =>
    Effect.gen(function* () {
      const store = yield* TenderStore
      yield* store.upsert(
        Array.from({ length: 15 }, (_, i) => makeRecord({ id: `ted-${i + 1}-2026`, deadline: isoFromNow(15 - i) }))
      )
      const response = yield* searchTenders({ q: "road" }, "free")
      assert.strictEqual(response.results.length, 10)
      assert.strictEqual(response.results[0]?.id, "ted-15-2026")
      assert.notProperty(response, "hint")
      assert.notProperty(response, "degradedSources")
    }).pipe(Effect.provide(Test))
  )

  it.live("refuses structured filters on Free with PlanRequired naming them", () =>
    Effect.gen(function* () {
      const error = yield* searchTenders({ q: "road", cpv: ["45"], minBudget: 0 }, "free").pipe(Effect.flip)
      assert.strictEqual(error._tag, "PlanRequired")
      assert.include(error.message, "cpv, minBudget")
    }).pipe(Effect.provide(Test))
  )

  it.live("treats a minBudget of 0 as a filter that excludes tenders without a budget", () =>
    Effect.gen(function* () {
      const store = yield* TenderStore
      yield* store.upsert([
        makeRecord({ id: "ted-1-2026" }),
        makeRecord({ id: "ted-2-2026", budget: null, currency: null })
      ])
      const response = yield* searchTenders({ q: "", minBudget: 0 }, "pro")
      assert.deepStrictEqual(
        response.results.map((r) => r.id),
        ["ted-1-2026"]
      )
      assert.include(response.hint, "Only 1 open tender")
    }).pipe(Effect.provide(Test))
  )

  it.live("lists failing sources in degradedSources and still answers", () =>
    Effect.gen(function* () {
      const now = yield* DateTime.now
      const runs = yield* Ref.make<ReadonlyArray<SourceRunSummary>>([
        { code: "ted", lastSuccessAt: now, lastFailureAt: null, runningSince: null },
        { code: "eaeu", lastSuccessAt: DateTime.subtract(now, { hours: 2 }), lastFailureAt: now, runningSince: null }
      ])
      const response = yield* searchTenders({ q: "road" }, "free").pipe(
        Effect.provide(
          Layer.mergeAll(TenderStoreMemory, sourceStatusStoreMemory(runs), Rates.bundled, SearchTextSimple)
        )
      )
      assert.deepStrictEqual(response.degradedSources, ["eaeu"])
      assert.deepStrictEqual(response.results, [])
    })
  )
})
