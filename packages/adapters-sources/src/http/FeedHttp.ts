import { retryAfterDelay, type SourceCode, SourceUnavailable } from "@tenders/core"
import { Clock, Duration, Effect, Result, Schedule } from "effect"
import { HttpClient, type HttpClientError, type HttpClientRequest } from "effect/http"
import { RateLimiter } from "effect/persistence"
import { AttemptFailure, fatal, type Reply, retryable } from "./AttemptFailure.ts"
import { attemptsOf, type FeedHttpPolicy, retrySchedule } from "./FeedHttpPolicy.ts"

/** Reads a reply: the data, or why this attempt gave nothing usable. */
export type Decode<A> = (reply: Reply) => Result.Result<A, AttemptFailure>

/** Sends one request (paced, timed out, retried) and decodes its reply; fails only with the caller's error `E`. */
export type PolicyFetch<E> = <A>(
  label: string,
  request: HttpClientRequest.HttpClientRequest,
  decode: Decode<A>
) => Effect.Effect<A, E>

/** Sends one feed request (paced, timed out, retried) and decodes its reply; fails only with `SourceUnavailable`. */
export type FeedFetch = PolicyFetch<SourceUnavailable>

/** A pause until `minIntervalMs` has passed since the previous request start: a one-token bucket. */
const pacingGate = Effect.fnUntraced(function* (minIntervalMs: number) {
  if (minIntervalMs <= 0) return Effect.void
  const limiter = yield* RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory))
  const window = Duration.millis(minIntervalMs)
  return RateLimiter.sleep(limiter, { key: "requests", algorithm: "token-bucket", limit: 1, window }).pipe(
    Effect.asVoid,
    Effect.orDie
  )
})

/**
 * A retryable failure of a reply that says `Retry-After` waits that long; one that asks for longer than
 * `maxRetryAfterSeconds` ends the run at once.
 */
const honourRetryAfter = (failure: AttemptFailure, reply: Reply, now: number, policy: FeedHttpPolicy) => {
  const delay = retryAfterDelay(reply.response.headers["retry-after"], now)
  if (!failure.retry || delay === undefined) return failure
  if (Duration.isLessThanOrEqualTo(delay, Duration.seconds(policy.maxRetryAfterSeconds))) {
    return new AttemptFailure({ reason: failure.reason, retry: true, retryAfter: delay })
  }
  const seconds = Math.ceil(Duration.toSeconds(delay))
  return fatal(
    `${failure.reason}, Retry-After ${seconds} s: more than the ${policy.maxRetryAfterSeconds} s the feed waits`
  )
}

/** The reason of a request that got no response. */
const requestFailed = (error: HttpClientError.HttpClientError): string => `request failed: ${error.message}`

/**
 * The HTTP policy of a source feed: requests spaced by `minIntervalMs` (retries included), each attempt timed
 * out after `requestTimeoutMs` with its body, a 429 and every retryable failure `decode` reports retried on
 * `retrySchedule` (exponential backoff with jitter, or the server's `Retry-After`), up to `maxAttempts`. A
 * failure no retry cures, or the last one, becomes `SourceUnavailable` naming `label`.
 */
export const makeFeedFetch = (
  source: SourceCode,
  policy: FeedHttpPolicy,
  describe: (error: HttpClientError.HttpClientError) => string = requestFailed
) => makePolicyFetch(source, policy, (message) => new SourceUnavailable({ source, message }), describe)

/**
 * The same policy for a feed that is not a source (the reference rates' publishers): `name` in its logs, and the
 * failure after the retries, `message` naming the request and why, as the caller's error.
 */
export const makePolicyFetch = Effect.fn("makePolicyFetch")(function* <E>(
  name: string,
  policy: FeedHttpPolicy,
  fail: (message: string) => E,
  describe: (error: HttpClientError.HttpClientError) => string = requestFailed
) {
  const client = yield* HttpClient.HttpClient
  const pace = yield* pacingGate(policy.minIntervalMs)
  const attempts = attemptsOf(policy)
  const send = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<Reply, AttemptFailure> =>
    client.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.arrayBuffer, (buffer): Reply => ({ response, body: new Uint8Array(buffer) }))
      ),
      Effect.mapError((error) => retryable(describe(error))),
      Effect.timeoutOrElse({
        duration: Duration.millis(policy.requestTimeoutMs),
        orElse: () => Effect.fail(retryable(`no complete answer within ${policy.requestTimeoutMs} ms`))
      })
    )
  const judge = <A>(reply: Reply, decode: Decode<A>) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const outcome = reply.response.status === 429 ? Result.fail(retryable("HTTP 429")) : decode(reply)
      return Effect.fromResult(Result.mapError(outcome, (failure) => honourRetryAfter(failure, reply, now, policy)))
    })
  const fetch: PolicyFetch<E> = (label, request, decode) =>
    pace.pipe(
      Effect.andThen(send(request)),
      Effect.flatMap((reply) => judge(reply, decode)),
      Effect.retry(
        retrySchedule(policy).pipe(
          Schedule.tap(({ input, duration, attempt }) =>
            Effect.logWarning(`${name} feed: retrying`, {
              request: label,
              attempt,
              delayMs: Duration.toMillis(duration),
              reason: input.reason
            })
          )
        )
      ),
      Effect.mapError((failure) => {
        const gaveUp = failure.retry ? ` (gave up after ${attempts} attempts)` : ""
        return fail(`${label}: ${failure.reason}${gaveUp}`)
      })
    )
  return fetch
})
