import { SourceUnavailable } from "@tenders/core"
import { Clock, Effect, Option, Random, Ref } from "effect"
import type { HttpClient, HttpClientRequest } from "effect/http"

/** What one response means: the data, a transient problem worth a retry, or a permanent failure. */
export type Verdict<A> =
  | { readonly _tag: "Ok"; readonly value: A }
  | { readonly _tag: "Retry"; readonly reason: string }
  | { readonly _tag: "Fatal"; readonly reason: string }

/** A response read in full within the request time limit. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
}

/** Pacing, retry and time-limit settings of the feed's HTTP calls. */
export interface FeedHttpPolicy {
  readonly minIntervalMs: number
  readonly maxAttempts: number
  readonly maxRetryAfterSeconds: number
  readonly requestTimeoutMs: number
}

/** Sends a request (paced, timed out, retried) and decodes the reply; fails only with `SourceUnavailable`. */
export type FeedFetch = <A>(
  label: string,
  request: HttpClientRequest.HttpClientRequest,
  decode: (reply: Reply) => Verdict<A>
) => Effect.Effect<A, SourceUnavailable>

type Outcome<A> = Verdict<A> | { readonly _tag: "Wait"; readonly ms: number; readonly reason: string }

/** A successful decode. */
export const ok = <A>(value: A): Verdict<A> => ({ _tag: "Ok", value })
/** A transient failure: retried with backoff. */
export const retry = (reason: string): Verdict<never> => ({ _tag: "Retry", reason })
/** A permanent failure: the run stops at once. */
export const fatal = (reason: string): Verdict<never> => ({ _tag: "Fatal", reason })

/** The verdict of an HTTP status alone: undefined for 2xx, a retry for 408/5xx, fatal for other statuses. */
export const statusVerdict = (status: number): Verdict<never> | undefined => {
  if (status >= 200 && status < 300) return undefined
  if (status === 408 || status >= 500) return retry(`HTTP ${status}`)
  return fatal(`HTTP ${status}`)
}

const utf8 = new TextDecoder("utf-8")
/** The body of a reply as UTF-8 text. */
export const bodyText = (reply: Reply): string => utf8.decode(reply.body)

/** Milliseconds a `Retry-After` header asks for (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export const retryAfterMs = (header: string | undefined, nowMs: number): number | undefined => {
  if (header === undefined || header.trim() === "") return undefined
  const value = header.trim()
  if (/^\d+$/u.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : "request failed"

/** Builds the fetcher: one request at a time, starts spaced by `minIntervalMs`, exponential backoff with jitter. */
export const makeFeedFetch = (client: HttpClient.HttpClient, policy: FeedHttpPolicy): Effect.Effect<FeedFetch> =>
  Effect.gen(function* () {
    const lastStart = yield* Ref.make(Number.NEGATIVE_INFINITY)
    const pace = Effect.gen(function* () {
      const wait = (yield* Ref.get(lastStart)) + policy.minIntervalMs - (yield* Clock.currentTimeMillis)
      if (wait > 0) yield* Effect.sleep(wait)
      yield* Ref.set(lastStart, yield* Clock.currentTimeMillis)
    })
    const send = (request: HttpClientRequest.HttpClientRequest) =>
      client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.arrayBuffer, (buffer): Reply => ({
            status: response.status,
            headers: response.headers,
            body: new Uint8Array(buffer)
          }))
        ),
        Effect.timeoutOption(policy.requestTimeoutMs)
      )
    const attempt = <A>(request: HttpClientRequest.HttpClientRequest, decode: (reply: Reply) => Verdict<A>) =>
      Effect.gen(function* () {
        yield* pace
        const reply = yield* send(request)
        if (Option.isNone(reply)) return retry(`timed out after ${policy.requestTimeoutMs} ms`)
        if (reply.value.status !== 429) return decode(reply.value)
        const ms = retryAfterMs(reply.value.headers["retry-after"], yield* Clock.currentTimeMillis)
        if (ms === undefined) return retry("HTTP 429 without Retry-After")
        if (ms > policy.maxRetryAfterSeconds * 1000) {
          return fatal(`HTTP 429, Retry-After ${Math.ceil(ms / 1000)} s exceeds ${policy.maxRetryAfterSeconds} s`)
        }
        const outcome: Outcome<A> = { _tag: "Wait", ms, reason: "HTTP 429" }
        return outcome
      }).pipe(Effect.catch((error): Effect.Effect<Outcome<A>> => Effect.succeed(retry(describe(error)))))
    const backoff = (n: number) =>
      Effect.map(Random.next, (r) => Math.min(policy.minIntervalMs * 2 ** (n - 1), 60_000) * (0.5 + r / 2))

    return <A>(label: string, request: HttpClientRequest.HttpClientRequest, decode: (reply: Reply) => Verdict<A>) => {
      const loop = (n: number): Effect.Effect<A, SourceUnavailable> =>
        Effect.flatMap(attempt(request, decode), (outcome) => {
          if (outcome._tag === "Ok") return Effect.succeed(outcome.value)
          if (outcome._tag === "Fatal") {
            return Effect.fail(new SourceUnavailable({ source: "eaeu", message: `${label}: ${outcome.reason}` }))
          }
          if (n >= policy.maxAttempts) {
            const message = `${label}: gave up after ${n} attempts: ${outcome.reason}`
            return Effect.fail(new SourceUnavailable({ source: "eaeu", message }))
          }
          const delay = outcome._tag === "Wait" ? Effect.succeed(outcome.ms) : backoff(n)
          return delay.pipe(
            Effect.flatMap((ms) => Effect.sleep(ms)),
            Effect.andThen(loop(n + 1))
          )
        })
      return loop(1)
    }
  })
