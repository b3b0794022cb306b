import { PgClient } from "@effect/sql-pg"
import { Clock, DateTime, Duration, Effect, Layer, Schema } from "effect"
import { RateLimiter } from "effect/persistence"

const Bucket = Schema.Struct({ tokens: Schema.Number, stamp: Schema.Number })

const instant = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))

/**
 * The store of Effect's RateLimiter on PostgreSQL (`rate_limits`, migration 18), so that every replica on one
 * database counts the same uses. Each call is one transaction holding the key's row lock, and computes what
 * Effect's in-memory store computes (`RateLimiter.layerStoreMemory`): a token bucket refilled by whole intervals, or a
 * fixed window. Times are the Effect Clock's. Adaptive limits (learned from a remote API's 429s) are not kept here.
 */
export const PgRateLimiterStore = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    /** The key's row, made with `initial` when missing (a new key also clears up to 100 rows that hold nothing). */
    const lockRow = Effect.fnUntraced(function* (key: string, initial: { tokens: number; stamp: number }, now: number) {
      const made = yield* sql`INSERT INTO rate_limits (key, tokens, stamp_ms, expires_at)
        VALUES (${key}, ${initial.tokens}, ${initial.stamp}, ${instant(now)}::timestamptz)
        ON CONFLICT (key) DO NOTHING RETURNING key`
      if (made.length > 0) {
        yield* sql`DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits
          WHERE expires_at < ${instant(now)}::timestamptz LIMIT 100 FOR UPDATE SKIP LOCKED)`
      }
      const rows = yield* sql`SELECT tokens, stamp_ms::float8 AS stamp FROM rate_limits WHERE key = ${key} FOR UPDATE`
      return yield* Schema.decodeUnknownEffect(Bucket)(rows[0])
    })
    const save = (key: string, tokens: number, stamp: number, forgetAt: number) =>
      sql`UPDATE rate_limits SET tokens = ${tokens}, stamp_ms = ${Math.round(stamp)},
          expires_at = ${instant(forgetAt)}::timestamptz
        WHERE key = ${key}`

    const tokenBucket = Effect.fn("PgRateLimiterStore.tokenBucket")(function* (options: {
      readonly key: string
      readonly tokens: number
      readonly limit: number
      readonly refillRate: Duration.Duration
      readonly allowOverflow: boolean
    }) {
      const now = yield* Clock.currentTimeMillis
      const refill = Duration.toMillis(options.refillRate)
      const key = `bucket:${options.key}`
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const bucket = yield* lockRow(key, { tokens: options.limit, stamp: now }, now)
          let tokens = bucket.tokens
          let refilledAt = bucket.stamp
          const add = Math.floor((now - refilledAt) / refill)
          if (add > 0) {
            tokens = Math.min(options.limit, tokens + add)
            refilledAt += add * refill
          }
          if (tokens >= options.limit) refilledAt = now
          const remaining = tokens - options.tokens
          if (options.allowOverflow || remaining >= 0) tokens = remaining
          const fullAt = refilledAt + Math.max(0, Math.ceil(options.limit - tokens)) * refill
          yield* save(key, tokens, refilledAt, fullAt)
          return [remaining, Math.max(0, now - refilledAt)] as const
        })
      )
    }, Effect.orDie)

    const fixedWindow = Effect.fn("PgRateLimiterStore.fixedWindow")(function* (options: {
      readonly key: string
      readonly tokens: number
      readonly refillRate: Duration.Duration
      readonly limit: number | undefined
    }) {
      const now = yield* Clock.currentTimeMillis
      const key = `window:${options.key}`
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const window = yield* lockRow(key, { tokens: 0, stamp: now }, now)
          const [count, endsAt] = window.stamp <= now ? [0, now] : [window.tokens, window.stamp]
          if (options.limit !== undefined && count + options.tokens > options.limit) {
            yield* save(key, count, endsAt, endsAt)
            return [count + options.tokens, endsAt - now] as const
          }
          const later = endsAt + Duration.toMillis(options.refillRate) * options.tokens
          yield* save(key, count + options.tokens, later, later)
          return [count + options.tokens, later - now] as const
        })
      )
    }, Effect.orDie)

    return RateLimiter.RateLimiterStore.of({
      tokenBucket,
      fixedWindow,
      adaptiveConsume: () => Effect.succeed({ delay: Duration.zero, epoch: 0, phase: "inactive" }),
      adaptiveFeedback: (options) =>
        Effect.fail(
          new RateLimiter.RateLimiterError({
            reason: new RateLimiter.RateLimitStoreError({
              message: `adaptive rate limits are not kept in the store (key ${options.key})`
            })
          })
        )
    })
  })
)

/** Effect's RateLimiter over the store's buckets. */
export const PgRateLimiter = RateLimiter.layer.pipe(Layer.provide(PgRateLimiterStore))
