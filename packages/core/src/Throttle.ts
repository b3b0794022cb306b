import { Duration, Effect } from "effect"
import { RateLimiter } from "effect/persistence"

/** A limit of `limit` uses per `window` under each key, named so that its keys are its own in a shared store. */
export interface UseLimit {
  readonly name: string
  readonly limit: number
  readonly window: Duration.Duration
}

/**
 * Takes one use of `use` under `key` from the RateLimiter in context (a token bucket: `limit` at once, then one more
 * every `window / limit`): 0 when taken, else the whole seconds to wait, and nothing is taken. `tenders serve` keeps
 * the buckets in the store, so every replica counts the same uses; a store failure is a defect.
 */
export const takeUse = (use: UseLimit, key: string): Effect.Effect<number, never, RateLimiter.RateLimiter> =>
  Effect.flatMap(RateLimiter.RateLimiter, (limiter) =>
    limiter
      .consume({
        algorithm: "token-bucket",
        onExceeded: "fail",
        window: use.window,
        limit: use.limit,
        key: `${use.name}:${key}`
      })
      .pipe(
        Effect.as(0),
        Effect.catch((error) =>
          error.reason._tag === "RateLimitExceeded"
            ? Effect.succeed(Math.max(1, Math.ceil(Duration.toSeconds(error.reason.retryAfter))))
            : Effect.die(error)
        )
      )
  )

/**
 * Takes one use of each limit in turn, the narrowest first, and stops at the first that refuses (its wait): a use a
 * later limit refuses was still taken from the earlier ones, which belong to the same caller.
 */
export const takeUses = Effect.fn("takeUses")(function* (uses: ReadonlyArray<readonly [UseLimit, string]>) {
  for (const [use, key] of uses) {
    const wait = yield* takeUse(use, key)
    if (wait > 0) return wait
  }
  return 0
})
