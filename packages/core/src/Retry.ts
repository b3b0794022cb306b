import { Duration, Result, Schedule } from "effect"
import { Headers } from "effect/http"

/**
 * The backoff of every HTTP client of Tenders (the source feeds and the client SDK): exponential from `base`, with
 * Effect's ±20 % jitter, each delay at most `cap`. Callers add how many times and on which failures.
 */
export const backoff = (base: Duration.Input, cap: Duration.Input) =>
  Schedule.min([Schedule.exponential(base).pipe(Schedule.jittered), Schedule.spaced(cap)])

/**
 * How long a `Retry-After` value asks to wait from `nowMillis` (delta-seconds or an HTTP date, read with Effect's
 * `Headers.parseRetryAfter`); undefined when absent or unreadable.
 */
export const retryAfterDelay = (value: string | undefined, nowMillis: number): Duration.Duration | undefined => {
  const parsed = value === undefined ? undefined : Headers.parseRetryAfter(value)
  return parsed === undefined || Result.isFailure(parsed)
    ? undefined
    : Headers.retryAfterDelay(parsed.success, nowMillis)
}
