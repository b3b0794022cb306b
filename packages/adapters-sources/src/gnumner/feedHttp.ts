import { SourceUnavailable } from "@tenders/core"
import { Clock, Duration, Effect, Predicate, Random, Ref, Result } from "effect"
import { Headers, HttpClient } from "effect/http"
import type { HttpClientResponse } from "effect/http"

/** How the feed talks to the gnumner hosts: pacing, retries, timeouts. */
export interface FetchPolicy {
  readonly minIntervalMs: number
  readonly maxAttempts: number
  readonly maxRetryAfterSeconds: number
  readonly requestTimeoutMs: number
  readonly insecureTlsHosts: ReadonlyArray<string>
}

/** A resource read: its bytes and their UTF-8 text (HTML pages, DOCX invitations), or the host said it does not exist (404 / 410). */
export type Fetched =
  { readonly _tag: "page"; readonly html: string; readonly bytes: Uint8Array } | { readonly _tag: "notFound" }

const utf8 = new TextDecoder("utf-8")

type Attempt =
  | Fetched
  | { readonly _tag: "retry"; readonly waitMs: number | null; readonly message: string }
  | { readonly _tag: "fatal"; readonly message: string }

const retry = (message: string, waitMs: number | null = null): Attempt => ({ _tag: "retry", waitMs, message })
const fatal = (message: string): Attempt => ({ _tag: "fatal", message })

/** Reads pages one at a time; fails with SourceUnavailable only when retries cannot help. */
export type PageFetcher = (url: string) => Effect.Effect<Fetched, SourceUnavailable>

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/u

/** `code` and `message` of an error and its `cause` chain. */
const causeChain = (
  error: unknown
): ReadonlyArray<{ readonly code: string | null; readonly message: string | null }> => {
  const chain: Array<{ readonly code: string | null; readonly message: string | null }> = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && Predicate.isObject(current); depth++) {
    const code = Predicate.hasProperty(current, "code") && Predicate.isString(current.code) ? current.code : null
    const message =
      Predicate.hasProperty(current, "message") && Predicate.isString(current.message) ? current.message : null
    chain.push({ code, message })
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return chain
}

const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).hostname : url)

/** The reason of a failed request, naming the TLS switch when the certificate was refused. */
const describeFailure = (error: unknown, url: string, policy: FetchPolicy): string => {
  if (Predicate.isTagged(error, "TimeoutError")) return `GET ${url} timed out after ${policy.requestTimeoutMs} ms`
  const transport = Predicate.hasProperty(error, "reason") ? error.reason : error
  const chain = causeChain(Predicate.hasProperty(transport, "cause") ? transport.cause : transport)
  const tls = chain.find((c) => c.code !== null && TLS_CODE.test(c.code))
  const detail = chain.at(-1)?.message ?? chain.at(0)?.message ?? String(error)
  if (tls !== undefined) {
    const host = hostOf(url)
    const hint = policy.insecureTlsHosts.includes(host)
      ? `${host} is already in TENDERS_GNUMNER_INSECURE_TLS_HOSTS`
      : `if the site's certificate is known to be broken, add "${host}" to TENDERS_GNUMNER_INSECURE_TLS_HOSTS`
    return `TLS error for GET ${url} (${tls.code}: ${tls.message ?? detail}); ${hint}`
  }
  const code = chain.find((c) => c.code !== null)?.code
  return `GET ${url} failed: ${detail}${code === undefined ? "" : ` (${code})`}`
}

const classify = (
  response: HttpClientResponse.HttpClientResponse,
  url: string,
  policy: FetchPolicy
): Effect.Effect<Attempt, unknown> =>
  Effect.gen(function* () {
    const status = response.status
    if (status >= 200 && status < 300) {
      const bytes = new Uint8Array(yield* response.arrayBuffer)
      return { _tag: "page", html: utf8.decode(bytes), bytes } satisfies Attempt
    }
    if (status === 404 || status === 410) return { _tag: "notFound" } satisfies Attempt
    if (status === 408 || status >= 500) return retry(`GET ${url}: HTTP ${status}`)
    if (status !== 429) return fatal(`GET ${url}: HTTP ${status}`)
    const header = response.headers["retry-after"]
    const parsed = header === undefined ? null : Headers.parseRetryAfter(header)
    if (parsed === null || Result.isFailure(parsed)) return retry(`GET ${url}: HTTP 429`)
    const waitMs = Duration.toMillis(Headers.retryAfterDelay(parsed.success, yield* Clock.currentTimeMillis))
    return waitMs > policy.maxRetryAfterSeconds * 1000
      ? fatal(
          `GET ${url}: HTTP 429 with Retry-After ${header} (${Math.ceil(waitMs / 1000)} s), more than the ${policy.maxRetryAfterSeconds} s the feed waits`
        )
      : retry(`GET ${url}: HTTP 429 (Retry-After ${header})`, waitMs)
  })

/** A fetcher spacing requests by `minIntervalMs` and retrying 429 / 5xx / timeouts / network and TLS errors. */
export const makeFetcher = (policy: FetchPolicy): Effect.Effect<PageFetcher, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const lastRequestAt = yield* Ref.make<number | null>(null)
    const pace = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const last = yield* Ref.get(lastRequestAt)
      const wait = last === null ? 0 : Math.max(0, last + policy.minIntervalMs - now)
      if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
      yield* Ref.set(lastRequestAt, now + wait)
    })
    const attempt = (url: string): Effect.Effect<Attempt> =>
      client
        .get(url, {
          headers: {
            accept:
              "text/html,application/xhtml+xml,application/vnd.openxmlformats-officedocument.wordprocessingml.document;q=0.9,*/*;q=0.8"
          }
        })
        .pipe(
          Effect.flatMap((response) => classify(response, url, policy)),
          Effect.timeout(Duration.millis(policy.requestTimeoutMs)),
          Effect.catch((error) => Effect.succeed(retry(describeFailure(error, url, policy))))
        )
    const backoff = (attemptNo: number): Effect.Effect<number> =>
      Effect.map(Random.next, (r) => {
        const exp = Math.max(policy.minIntervalMs, 50) * 2 ** (attemptNo - 1)
        return Math.round(exp * (0.5 + r * 0.5))
      })
    return (url: string) =>
      Effect.gen(function* () {
        for (let n = 1; ; n++) {
          yield* pace
          const outcome = yield* attempt(url)
          if (outcome._tag === "page" || outcome._tag === "notFound") return outcome
          if (outcome._tag === "fatal")
            return yield* new SourceUnavailable({ source: "gnumner", message: outcome.message })
          if (n >= Math.max(1, policy.maxAttempts)) {
            return yield* new SourceUnavailable({
              source: "gnumner",
              message: `${outcome.message} (gave up after ${n} attempts)`
            })
          }
          yield* Effect.sleep(Duration.millis(outcome.waitMs ?? (yield* backoff(n))))
        }
      })
  })
