import { backoff, retryAfterDelay } from "@tenders/core"
import { Duration, Effect, Schedule } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest } from "effect/http"

/** How a client retries: 5xx and network errors with backoff, 429 only when `Retry-After` is short. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables retries). */
  readonly maxRetries?: number | undefined
  /** Delay before the first retry; it doubles on each retry, with jitter, up to 30 s (default 500 ms). */
  readonly baseDelay?: Duration.Input | undefined
  /** The longest `Retry-After` a 429 or 5xx is waited out for; a longer one is raised at once (default 60 s). */
  readonly maxRetryAfter?: Duration.Input | undefined
  /** Time limit of one attempt, until response headers arrive (default 30 s); a timeout counts as a network error. */
  readonly attemptTimeout?: Duration.Input | undefined
}

const maxBackoff = Duration.seconds(30)

/**
 * Seconds to wait from a `Retry-After` value (delta-seconds or an HTTP date), or undefined when absent or
 * unreadable. `nowMillis` is the current time, for the HTTP-date form.
 */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  const delay = retryAfterDelay(value, nowMillis)
  return delay === undefined ? undefined : Math.ceil(Duration.toSeconds(delay))
}

/** A request the server may already have acted on is not replayed after a 500 or a lost connection. */
const replayable = (request: HttpClientRequest.HttpClientRequest): boolean =>
  !(request.method === "POST" && /\/v1\/watchlists\/?$/u.test(new URL(request.url).pathname))

const isStatusCodeError = (
  error: unknown
): error is HttpClientError.HttpClientError & { readonly reason: HttpClientError.StatusCodeError } =>
  HttpClientError.isHttpClientError(error) && error.reason._tag === "StatusCodeError"

/**
 * Whether the policy retries a failed attempt: a lost connection or timeout when the request is replayable;
 * a 5xx when replayable (a 503 always: the server did not act), unless its `Retry-After` is too long; a 429
 * only with a `Retry-After` of at most `maxRetryAfter`.
 */
const mayRetry = (failure: unknown, nowMillis: number, maxRetryAfter: Duration.Duration): boolean => {
  if (!HttpClientError.isHttpClientError(failure)) return false
  const reason = failure.reason
  if (reason._tag === "TransportError") return replayable(reason.request)
  if (reason._tag !== "StatusCodeError") return false
  const wait = retryAfterDelay(reason.response.headers["retry-after"], nowMillis)
  if (wait !== undefined && Duration.isGreaterThan(wait, maxRetryAfter)) return false
  const status = reason.response.status
  if (status === 429) return wait !== undefined
  return status >= 500 && (status === 503 || replayable(reason.request))
}

/**
 * Wraps an `HttpClient` with the Tenders retry policy: network errors, timeouts and 5xx answers are retried
 * with exponential backoff; 429 is retried only when `Retry-After` is at most `maxRetryAfter` (a monthly quota
 * does not come back in a minute), else the answer is returned at once. `POST /v1/watchlists` is replayed only
 * after a 429 or a 503, never after a 500 or a lost connection, so a watchlist is not created twice. Built on
 * `HttpClient.retryTransient`, which waits at least a response's `Retry-After`.
 */
export const withRetries =
  (options: RetryOptions = {}) =>
  <E, R>(
    client: HttpClient.HttpClient.With<E, R>
  ): HttpClient.HttpClient.With<E | HttpClientError.HttpClientError, R> => {
    const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3))
    const baseDelay = Duration.fromInputUnsafe(options.baseDelay ?? 500)
    const maxRetryAfter = Duration.fromInputUnsafe(options.maxRetryAfter ?? "60 seconds")
    const attemptTimeout = Duration.fromInputUnsafe(options.attemptTimeout ?? "30 seconds")
    const schedule = backoff(baseDelay, maxBackoff).pipe(
      Schedule.while(({ input, now }) => mayRetry(input, now, maxRetryAfter)),
      // Releases the connection of an answer that is not handed to the caller.
      Schedule.tap(({ input }) =>
        isStatusCodeError(input) ? Effect.ignore(input.reason.response.arrayBuffer) : Effect.void
      )
    )
    return client.pipe(
      HttpClient.transform((send, request) =>
        Effect.timeoutOrElse(send, {
          duration: attemptTimeout,
          orElse: () =>
            Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({
                  request,
                  description: `no response within ${Duration.format(attemptTimeout)}`
                })
              })
            )
        })
      ),
      HttpClient.filterStatusOk,
      HttpClient.retryTransient({
        retryOn: "errors-only",
        while: (error) => isStatusCodeError(error) && error.reason.response.status >= 500,
        schedule,
        times: maxRetries
      }),
      HttpClient.transformResponse(Effect.catchIf(isStatusCodeError, (error) => Effect.succeed(error.reason.response)))
    )
  }
