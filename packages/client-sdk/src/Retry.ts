import { Clock, Duration, Effect, Random } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, type HttpClientResponse } from "effect/http"

/** How a client retries: 5xx and network errors with backoff, 429 only when `Retry-After` is short. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables retries). */
  readonly maxRetries?: number | undefined
  /** Delay before the first retry; it doubles on each retry, with jitter, up to 30 s (default 500 ms). */
  readonly baseDelay?: Duration.Input | undefined
  /** The longest `Retry-After` a 429 or 5xx is waited out for; a longer one is raised at once (default 60 s). */
  readonly maxRetryAfter?: Duration.Input | undefined
  /** Time limit of one attempt, until the response headers arrive (default 30 s); a timeout counts as a network error. */
  readonly attemptTimeout?: Duration.Input | undefined
}

const maxBackoffMillis = 30_000

/**
 * Seconds to wait from a `Retry-After` value (delta-seconds or an HTTP date), or undefined when absent or
 * unreadable. `nowMillis` is the current time, for the HTTP-date form.
 */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/u.test(text)) return Number(text)
  // HTTP dates (IMF-fixdate, RFC 850, asctime) all begin with the day's name.
  if (!/^[A-Za-z]{3}/u.test(text)) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, Math.ceil((date - nowMillis) / 1000))
}

/** A request the server may already have acted on is not replayed after a 500 or a lost connection. */
const replayable = (request: HttpClientRequest.HttpClientRequest): boolean =>
  !(request.method === "POST" && /\/v1\/watchlists\/?$/u.test(new URL(request.url).pathname))

/** Releases the connection of a response that is not handed to the caller. */
const discard = (response: HttpClientResponse.HttpClientResponse) => Effect.ignore(response.arrayBuffer)

const backoff = Effect.fnUntraced(function* (baseMillis: number, retry: number) {
  const ceiling = Math.min(maxBackoffMillis, baseMillis * 2 ** retry)
  const jitter = yield* Random.next
  return Duration.millis(Math.round(ceiling / 2 + (ceiling / 2) * jitter))
})

/**
 * Wraps an `HttpClient` with the Tenders retry policy: network errors, timeouts and 5xx answers are retried
 * with exponential backoff; 429 is retried only when `Retry-After` is at most `maxRetryAfter` (a monthly quota
 * does not come back in a minute), else the answer is returned at once. `POST /v1/watchlists` is replayed only
 * after a 429 or a 503, never after a 500 or a lost connection, so a watchlist is not created twice.
 */
export const withRetries =
  (options: RetryOptions = {}) =>
  <E, R>(
    client: HttpClient.HttpClient.With<E, R>
  ): HttpClient.HttpClient.With<E | HttpClientError.HttpClientError, R> => {
    const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3))
    const baseMillis = Duration.toMillis(Duration.fromInputUnsafe(options.baseDelay ?? 500))
    const maxRetryAfterSeconds = Duration.toSeconds(Duration.fromInputUnsafe(options.maxRetryAfter ?? "60 seconds"))
    const attemptTimeout = Duration.fromInputUnsafe(options.attemptTimeout ?? "30 seconds")
    return HttpClient.transform(client, (send, request) => {
      const canReplay = replayable(request)
      const timedSend = Effect.timeoutOrElse(send, {
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
      const attempt = (
        retry: number
      ): Effect.Effect<HttpClientResponse.HttpClientResponse, E | HttpClientError.HttpClientError, R> =>
        timedSend.pipe(
          Effect.matchEffect({
            onFailure: (error) =>
              retry < maxRetries &&
              canReplay &&
              HttpClientError.isHttpClientError(error) &&
              error.reason._tag === "TransportError"
                ? Effect.flatMap(backoff(baseMillis, retry), (delay) =>
                    Effect.andThen(Effect.sleep(delay), attempt(retry + 1))
                  )
                : Effect.fail(error),
            onSuccess: (response) =>
              Effect.gen(function* () {
                const status = response.status
                const retryable = status === 429 || (status >= 500 && (canReplay || status === 503))
                if (!retryable || retry >= maxRetries) return response
                const retryAfter = parseRetryAfter(response.headers["retry-after"], yield* Clock.currentTimeMillis)
                if (retryAfter !== undefined && retryAfter > maxRetryAfterSeconds) return response
                if (status === 429 && retryAfter === undefined) return response
                const delay =
                  retryAfter === undefined
                    ? yield* backoff(baseMillis, retry)
                    : Duration.max(Duration.seconds(retryAfter), Duration.millis(1))
                yield* discard(response)
                yield* Effect.sleep(delay)
                return yield* attempt(retry + 1)
              })
          })
        )
      return attempt(0)
    })
  }
