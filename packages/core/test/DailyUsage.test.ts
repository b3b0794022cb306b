import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { AccountStore, authorizeCall, monthDailyUsage } from "../src/index.ts"
import { AccountStoreMemory, accountWithKey } from "../src/testing/index.ts"

const at = (iso: string) => TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe(iso)))

describe("monthDailyUsage", () => {
  it.effect(
    "gives every day of the UTC month with the calls the quota counted that day; refused calls count nowhere",
    () =>
      Effect.gen(function* () {
        const { key } = yield* accountWithKey("days@example.com", "free", "rest", 3)
        const account = yield* Effect.flatMap((yield* AccountStore).findAccount("days@example.com"), Effect.fromOption)
        yield* at("2026-01-31T23:59:00Z")
        yield* authorizeCall(key, "rest")
        yield* at("2026-02-02T08:00:00Z")
        yield* authorizeCall(key, "rest")
        yield* authorizeCall(key, "rest", { count: false })
        yield* at("2026-02-02T23:59:59Z")
        yield* authorizeCall(key, "rest")
        yield* at("2026-02-03T00:00:00Z")
        yield* authorizeCall(key, "rest")
        assert.strictEqual((yield* Effect.flip(authorizeCall(key, "rest")))._tag, "QuotaExceeded")
        const usage = yield* monthDailyUsage(account)
        assert.strictEqual(usage.month, "2026-02")
        assert.strictEqual(usage.today, "2026-02-03")
        assert.strictEqual(usage.days.length, 28)
        assert.deepStrictEqual(usage.days.slice(0, 4), [
          { day: "2026-02-01", calls: 0, future: false },
          { day: "2026-02-02", calls: 2, future: false },
          { day: "2026-02-03", calls: 1, future: false },
          { day: "2026-02-04", calls: 0, future: true }
        ])
        assert.strictEqual(usage.days.at(-1)?.day, "2026-02-28")
        assert.deepStrictEqual(yield* (yield* AccountStore).dailyUsage(account.id, "2026-01"), [
          { day: "2026-01-31", calls: 1 }
        ])
      }).pipe(Effect.provide(AccountStoreMemory))
  )
})
