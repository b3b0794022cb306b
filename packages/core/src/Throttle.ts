import { Duration, Effect } from "effect"
import { RateLimiter } from "effect/persistence"

/** The seconds to wait before the next use under a key, or 0 when it may go now (the use is then counted). */
export type Throttle = (key: string) => Effect.Effect<number>

/**
 * A throttle of `limit` uses per `window` for each key: a token bucket from Effect's RateLimiter, kept in this
 * process (each replica counts its own). For limits that protect the server, not quotas people pay for.
 */
export const makeThrottle = (limit: number, window: Duration.Duration): Effect.Effect<Throttle> =>
  Effect.map(
    RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory)),
    (limiter) => (key) =>
      limiter.consume({ algorithm: "token-bucket", onExceeded: "fail", window, limit, key }).pipe(
        Effect.as(0),
        Effect.catch((error) =>
          Effect.succeed(
            error.reason._tag === "RateLimitExceeded"
              ? Math.max(1, Math.ceil(Duration.toSeconds(error.reason.retryAfter)))
              : 0
          )
        )
      )
  )
