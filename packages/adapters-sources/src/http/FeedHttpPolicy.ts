import { backoff } from "@tenders/core"
import { Duration, Effect, Schedule } from "effect"
import type { AttemptFailure } from "./AttemptFailure.ts"

/** How a source feed talks HTTP: pacing, retries and time limits (the same settings for every source). */
export interface FeedHttpPolicy {
  /** At least this long between two request starts, retries included (0: no pacing). */
  readonly minIntervalMs: number
  /** Attempts per request for 429, 5xx, timeouts, network and TLS errors and damaged bodies. */
  readonly maxAttempts: number
  /** Honour `Retry-After` up to this many seconds, else give up at once. */
  readonly maxRetryAfterSeconds: number
  /** Time limit of one attempt, body included. */
  readonly requestTimeoutMs: number
  /** First retry delay without `Retry-After`; doubles per attempt, with jitter. */
  readonly backoffBaseMs: number
  /** Upper bound of one backoff delay. */
  readonly maxBackoffMs: number
}

/** The defaults: one request a second, 5 attempts, backoff from 2 s up to 60 s, 30 s per attempt. */
export const defaultFeedHttpPolicy: FeedHttpPolicy = {
  minIntervalMs: 1000,
  maxAttempts: 5,
  maxRetryAfterSeconds: 120,
  requestTimeoutMs: 30_000,
  backoffBaseMs: 2000,
  maxBackoffMs: 60_000
}

/** The attempts a policy allows, at least one. */
export const attemptsOf = (policy: FeedHttpPolicy): number => Math.max(1, Math.floor(policy.maxAttempts))

/**
 * When to try again: exponential backoff with jitter, capped at `maxBackoffMs`, for `maxAttempts` attempts in
 * all; only after a retryable failure, and after its `Retry-After` instead of the backoff when it has one.
 */
export const retrySchedule = (policy: FeedHttpPolicy) =>
  backoff(Duration.millis(policy.backoffBaseMs), Duration.millis(policy.maxBackoffMs)).pipe(
    Schedule.upTo({ times: attemptsOf(policy) - 1 }),
    Schedule.setInputType<AttemptFailure>(),
    Schedule.while(({ input }) => input.retry),
    Schedule.modifyDelay(({ input, duration }) => Effect.succeed(input.retryAfter ?? duration))
  )
