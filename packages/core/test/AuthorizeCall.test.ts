import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  AccountStore,
  authenticateCaller,
  authorizeCall,
  type KeyKind,
  monthOf,
  type Plan,
  QuotaCounterUnavailable,
  quotaOfRefusal,
  secondsUntilMonthEnd
} from "../src/index.ts"
import { AccountStoreMemory, accountWithKey } from "../src/testing/index.ts"

const at = (iso: string) => TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe(iso)))

const caller = (plan: Plan, monthlyLimit: number | null = null, kind: KeyKind = "rest") =>
  accountWithKey(`${plan}-${monthlyLimit ?? "plan"}-${kind}@example.com`, plan, kind, monthlyLimit)

const usedThisMonth = Effect.fn("usedThisMonth")(function* (email: string) {
  const store = yield* AccountStore
  const account = yield* Effect.flatMap(store.findAccount(email), Effect.fromOption)
  return (yield* store.usage(account.id, monthOf(yield* DateTime.now))).calls
})

describe("authenticateCaller", () => {
  it.effect("refuses a missing, malformed, wrong-kind, unknown or revoked secret with Unauthorized, naming why", () =>
    Effect.gen(function* () {
      const rest = yield* caller("pro")
      const mcp = yield* caller("pro", null, "mcp")
      const revoked = yield* accountWithKey("revoked@example.com", "pro", "rest")
      assert.isTrue(yield* (yield* AccountStore).revokeKey(revoked.keyId))
      const cases: ReadonlyArray<[string | undefined, RegExp]> = [
        [undefined, /Missing credentials.*REST key/u],
        ["", /Missing credentials/u],
        ["sk_live_short", /Wrong credential format/u],
        [mcp.key, /Wrong credential format: this endpoint takes a REST key/u],
        [`sk_live_${"A".repeat(32)}`, /Invalid or revoked key/u],
        [revoked.key, /Invalid or revoked key/u]
      ]
      for (const [secret, message] of cases) {
        const error = yield* Effect.flip(authenticateCaller(secret, "rest"))
        assert.strictEqual(error._tag, "Unauthorized", String(secret))
        assert.match(error.message, message, String(secret))
      }
      assert.strictEqual((yield* authenticateCaller(rest.key, "rest")).plan, "pro")
      assert.strictEqual((yield* Effect.flip(authenticateCaller(rest.key, "mcp")))._tag, "Unauthorized")
    }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect("counts nothing", () =>
    Effect.gen(function* () {
      const { key } = yield* caller("free")
      for (let i = 0; i < 3; i++) yield* authenticateCaller(key, "rest")
      assert.strictEqual(yield* usedThisMonth("free-plan-rest@example.com"), 0)
    }).pipe(Effect.provide(AccountStoreMemory))
  )
})

describe("authorizeCall", () => {
  it.effect("counts each call and reports the limit, what remains and the seconds until the month ends", () =>
    Effect.gen(function* () {
      yield* at("2026-03-31T23:00:00Z")
      const { key } = yield* caller("pro", 3)
      const calls = [yield* authorizeCall(key, "rest"), yield* authorizeCall(key, "rest")]
      assert.deepStrictEqual(
        calls.map(({ limit, remaining, resetSeconds }) => ({ limit, remaining, resetSeconds })),
        [
          { limit: 3, remaining: 2, resetSeconds: 3600 },
          { limit: 3, remaining: 1, resetSeconds: 3600 }
        ]
      )
      assert.strictEqual(calls[0]?.account.email, "pro-3-rest@example.com")
      assert.strictEqual(yield* usedThisMonth("pro-3-rest@example.com"), 2)
    }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect("does not count an uncounted call, and still reports the quota", () =>
    Effect.gen(function* () {
      const { key } = yield* caller("free", 2)
      yield* authorizeCall(key, "rest")
      const uncounted = yield* authorizeCall(key, "rest", { count: false })
      assert.deepStrictEqual([uncounted.limit, uncounted.remaining], [2, 1])
      assert.strictEqual(yield* usedThisMonth("free-2-rest@example.com"), 1)
    }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect(
    "refuses the call past the limit with QuotaExceeded carrying the limit and reset, and does not count it",
    () =>
      Effect.gen(function* () {
        yield* at("2026-06-30T22:00:00Z")
        const { key } = yield* caller("pro", 1)
        yield* authorizeCall(key, "rest")
        const error = yield* Effect.flip(authorizeCall(key, "rest"))
        assert.strictEqual(error._tag, "QuotaExceeded")
        if (error._tag !== "QuotaExceeded") return
        assert.deepStrictEqual([error.limit, error.resetSeconds], [1, 7200])
        assert.deepStrictEqual(quotaOfRefusal(error), Option.some({ limit: 1, remaining: 0, resetSeconds: 7200 }))
        assert.strictEqual(yield* usedThisMonth("pro-1-rest@example.com"), 1)
      }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect("names the remedy by plan: a $5 pack or an upgrade on paid plans, an upgrade on Free", () =>
    Effect.gen(function* () {
      const free = yield* caller("free", 0)
      const business = yield* caller("business", 0)
      const freeError = yield* Effect.flip(authorizeCall(free.key, "rest"))
      assert.include(freeError.message, "Monthly call limit of 0 reached; upgrade to the Pro or Business plan")
      assert.notInclude(freeError.message, "pack")
      const paidError = yield* Effect.flip(authorizeCall(business.key, "rest"))
      assert.include(paidError.message, "buy a $5 pack of 10,000 calls")
    }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect("uses the plan's monthly calls unless the account has its own limit, plus 10,000 per pack this month", () =>
    Effect.gen(function* () {
      const free = yield* caller("free")
      assert.strictEqual((yield* authorizeCall(free.key, "rest")).limit, 1_000)
      const { key } = yield* caller("pro", 1)
      yield* authorizeCall(key, "rest")
      const store = yield* AccountStore
      const account = yield* Effect.flatMap(store.findAccount("pro-1-rest@example.com"), Effect.fromOption)
      yield* store.addPack(account.id, monthOf(yield* DateTime.now))
      const afterPack = yield* authorizeCall(key, "rest")
      assert.deepStrictEqual([afterPack.limit, afterPack.remaining], [10_001, 9_999])
    }).pipe(Effect.provide(AccountStoreMemory))
  )

  it.effect("starts counting again when the UTC month ends; packs do not carry over", () =>
    Effect.gen(function* () {
      yield* at("2026-12-31T23:59:59Z")
      const { key } = yield* caller("pro", 1, "mcp")
      const last = yield* authorizeCall(key, "mcp")
      assert.strictEqual(last.resetSeconds, 1)
      const store = yield* AccountStore
      const account = yield* Effect.flatMap(store.findAccount("pro-1-mcp@example.com"), Effect.fromOption)
      yield* store.addPack(account.id, "2026-12")
      assert.strictEqual((yield* authorizeCall(key, "mcp")).limit, 10_001)
      yield* TestClock.adjust("1 second")
      const first = yield* authorizeCall(key, "mcp")
      assert.deepStrictEqual([first.limit, first.remaining, first.resetSeconds], [1, 0, 31 * 24 * 3600])
      const refused = yield* Effect.flip(authorizeCall(key, "mcp"))
      assert.strictEqual(refused._tag, "QuotaExceeded")
    }).pipe(Effect.provide(AccountStoreMemory))
  )
})

describe("secondsUntilMonthEnd", () => {
  it("counts whole seconds to the next UTC month, at least 1", () => {
    const seconds = (iso: string) => secondsUntilMonthEnd(DateTime.makeUnsafe(iso))
    assert.strictEqual(seconds("2026-02-01T00:00:00Z"), 28 * 24 * 3600)
    assert.strictEqual(seconds("2028-02-01T00:00:00Z"), 29 * 24 * 3600)
    assert.strictEqual(seconds("2026-04-30T23:59:59.500Z"), 1)
    assert.strictEqual(seconds("2026-04-30T12:00:00+14:00"), 26 * 3600)
  })
})

/** The in-memory account store, except that the call counter cannot be written (a full disk). */
const counterUnavailable = Layer.effect(
  AccountStore,
  Effect.gen(function* () {
    const store = yield* AccountStore
    return AccountStore.of({
      ...store,
      consumeCall: () => Effect.fail(new QuotaCounterUnavailable({ message: "the disk is full" }))
    })
  })
).pipe(Layer.provide(AccountStoreMemory))

describe("authorizeCall while the store cannot count", () => {
  it.effect("serves a call within the limit uncounted, and still refuses one past the limit", () =>
    Effect.gen(function* () {
      yield* at("2026-11-23T10:00:00Z")
      const within = yield* caller("pro", 5)
      const call = yield* authorizeCall(within.key, "rest")
      assert.deepStrictEqual([call.limit, call.remaining], [5, 5])
      assert.strictEqual(yield* usedThisMonth("pro-5-rest@example.com"), 0)
      const spent = yield* caller("free", 0)
      const refused = yield* Effect.flip(authorizeCall(spent.key, "rest"))
      assert.strictEqual(refused._tag, "QuotaExceeded")
    }).pipe(Effect.provide(counterUnavailable))
  )
})
