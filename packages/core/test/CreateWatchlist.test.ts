import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  createWatchlist,
  estimateMatches,
  listWatchlists,
  previewMatches,
  TenderStore,
  WatchlistStore,
  type WatchlistInput
} from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"
import { account, atStart, inDays, world } from "./support.ts"

const tagOf = (input: WatchlistInput, plan: "free" | "pro") =>
  Effect.gen(function* () {
    const owner = yield* account(`${plan}@example.com`, plan)
    const result = yield* Effect.result(createWatchlist(input, owner))
    return result._tag === "Success" ? "Created" : result.failure._tag
  })

describe("createWatchlist", () => {
  it.effect("answers 400 before 403: an invalid request beyond the plan is invalid_input", () =>
    Effect.gen(function* () {
      yield* atStart
      const overPlanAndInvalid = {
        name: "w",
        filters: { q: "road", countries: ["EE"] },
        channels: { webhook: "http://hooks.example.com/plain-http" }
      }
      assert.strictEqual(yield* tagOf(overPlanAndInvalid, "free"), "InvalidInput")
      assert.strictEqual(yield* tagOf({ name: "w", filters: { countries: [] } }, "free"), "InvalidInput")
      const overPlan = { name: "w", filters: { q: "road" }, channels: { webhook: "https://hooks.example.com/x" } }
      assert.strictEqual(yield* tagOf(overPlan, "free"), "PlanRequired")
      assert.strictEqual(yield* tagOf({ name: "w", filters: { q: "road", cpv: ["45"] } }, "free"), "PlanRequired")
      assert.strictEqual(yield* tagOf(overPlan, "pro"), "Created")
    }).pipe(Effect.provide(world()))
  )

  it.effect("keeps a webhook URL in its normal form, and refuses one whose host is missing or one label", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("hooks@example.com", "pro")
      const input = { name: "w", filters: { q: "road" }, channels: { webhook: "https://Hooks.Example.COM:443/a/../b" } }
      yield* createWatchlist(input, owner)
      const [saved] = yield* (yield* WatchlistStore).list(owner.id)
      assert.strictEqual(saved?.channels?.webhook, "https://hooks.example.com/b")
      for (const webhook of ["https:///x", "https://x/hook"]) {
        const refused = yield* Effect.flip(createWatchlist({ ...input, channels: { webhook } }, owner))
        assert.strictEqual(refused._tag, "InvalidInput", webhook)
      }
    }).pipe(Effect.provide(world()))
  )

  it.effect("refuses the plan's next watchlist with limit_reached, but an invalid one still with invalid_input", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("free@example.com", "free")
      for (let i = 0; i < 3; i++) yield* createWatchlist({ name: `w${i}`, filters: { q: "road" } }, owner)
      const next = yield* Effect.flip(createWatchlist({ name: "w3", filters: { q: "road" } }, owner))
      assert.strictEqual(next._tag, "LimitReached")
      assert.include(next.message, "allows 3 watchlists")
      const invalid = yield* Effect.flip(createWatchlist({ name: "w3", filters: {} }, owner))
      assert.strictEqual(invalid._tag, "InvalidInput")
    }).pipe(Effect.provide(world()))
  )

  it.effect("counts the open tenders matching today and says which currency a budget range uses", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* (yield* TenderStore).upsert([
        makeRecord({ id: "ted-1-2026", title: "Road works", deadline: inDays(5) }),
        makeRecord({ id: "ted-2-2026", title: "Road salt", deadline: inDays(-1) }),
        makeRecord({ id: "ted-3-2026", title: "Road lighting", status: "cancelled", deadline: inDays(5) })
      ])
      const own = yield* createWatchlist({ name: "Roads", filters: { q: "road", minBudget: 10 } }, owner)
      assert.strictEqual(own.estimatedMatches, 1)
      assert.include(own.hint, "each tender's own currency")
      const converted = yield* createWatchlist(
        { name: "Roads in EUR", filters: { q: "road", minBudget: 10, budgetCurrency: "EUR" } },
        owner
      )
      assert.include(converted.hint, "compared in EUR at reference rates of")
      const none = yield* createWatchlist({ name: "Kayaks", filters: { q: "kayak" } }, owner)
      assert.deepStrictEqual(
        [none.estimatedMatches, none.hint],
        [0, "No open tender matches these filters today; you will be alerted when one does."]
      )
    }).pipe(Effect.provide(world()))
  )

  it.effect("previews the count creation gives, with its refusals and without saving; lists each with its count", () =>
    Effect.gen(function* () {
      yield* atStart
      const free = yield* account("free@example.com", "free")
      const pro = yield* account("pro@example.com", "pro")
      yield* (yield* TenderStore).upsert([
        makeRecord({ id: "ted-1-2026", title: "Road works", country: "EE", deadline: inDays(5) }),
        makeRecord({ id: "ted-2-2026", title: "Road salt", country: "LV", deadline: inDays(5) })
      ])
      assert.strictEqual(yield* previewMatches({ q: "road" }, free), 2)
      assert.strictEqual(
        (yield* Effect.flip(previewMatches({ q: "road", countries: ["EE"] }, free)))._tag,
        "PlanRequired"
      )
      assert.strictEqual((yield* Effect.flip(previewMatches({ countries: [] }, pro)))._tag, "InvalidInput")
      assert.strictEqual(yield* previewMatches({ q: "road", countries: ["EE"] }, pro), 1)
      assert.deepStrictEqual(yield* (yield* WatchlistStore).list(pro.id), [])
      const created = yield* createWatchlist({ name: "EE", filters: { q: "road", countries: ["EE"] } }, pro)
      assert.strictEqual(created.estimatedMatches, yield* estimateMatches({ q: "road", countries: ["EE"] }))
      yield* createWatchlist({ name: "All roads", filters: { q: "road" } }, pro)
      yield* createWatchlist({ name: "Free roads", filters: { q: "road" } }, free)
      const listed = yield* listWatchlists(pro.id)
      assert.deepStrictEqual(
        listed.map((w) => [w.name, w.estimatedMatches]),
        [
          ["EE", 1],
          ["All roads", 2]
        ]
      )
    }).pipe(Effect.provide(world()))
  )
})
