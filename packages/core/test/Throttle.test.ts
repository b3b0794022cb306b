import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import { takeUse, takeUses, type UseLimit } from "../src/index.ts"

/** A fresh bucket store per test, on the test's clock. */
const buckets = RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreMemory))

/** Three uses a minute: a use comes back every 20 seconds. */
const reads: UseLimit = { name: "reads", limit: 3, window: Duration.minutes(1) }
const writes: UseLimit = { name: "writes", limit: 1, window: Duration.minutes(1) }

describe("takeUse", () => {
  it.effect("takes a use while the bucket has one, then answers the whole seconds to wait and takes nothing", () =>
    Effect.gen(function* () {
      for (let i = 0; i < reads.limit; i++) assert.strictEqual(yield* takeUse(reads, "a"), 0, `use ${i}`)
      assert.strictEqual(yield* takeUse(reads, "a"), 20)
      // A refused use took nothing: the wait only shrinks as the clock moves on.
      assert.strictEqual(yield* takeUse(reads, "a"), 20)
      yield* TestClock.adjust(Duration.millis(19_500))
      assert.strictEqual(yield* takeUse(reads, "a"), 1)
      yield* TestClock.adjust(Duration.millis(500))
      assert.strictEqual(yield* takeUse(reads, "a"), 0)
      assert.strictEqual(yield* takeUse(reads, "a"), 20)
    }).pipe(Effect.provide(buckets))
  )

  it.effect("counts each key apart, and the keys of each limit apart by the limit's name", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* takeUse(writes, "a"), 0)
      assert.strictEqual(yield* takeUse(writes, "a"), 60)
      assert.strictEqual(yield* takeUse(writes, "b"), 0)
      assert.strictEqual(yield* takeUse(reads, "a"), 0)
    }).pipe(Effect.provide(buckets))
  )
})

describe("takeUses", () => {
  it.effect("stops at the first limit that refuses, with its wait; the earlier limits' uses stay taken", () =>
    Effect.gen(function* () {
      assert.strictEqual(
        yield* takeUses([
          [reads, "a"],
          [writes, "a"]
        ]),
        0
      )
      assert.strictEqual(
        yield* takeUses([
          [reads, "a"],
          [writes, "a"]
        ]),
        60
      )
      // The read of the refused call was taken: one read is left of three.
      assert.strictEqual(yield* takeUse(reads, "a"), 0)
      assert.strictEqual(yield* takeUse(reads, "a"), 20)
      // Refused by the first limit, the later ones are not asked.
      yield* TestClock.adjust(Duration.minutes(1))
      for (let i = 0; i < reads.limit; i++) yield* takeUse(reads, "a")
      assert.strictEqual(
        yield* takeUses([
          [reads, "a"],
          [writes, "a"]
        ]),
        20
      )
      assert.strictEqual(yield* takeUse(writes, "a"), 0)
    }).pipe(Effect.provide(buckets))
  )
})
