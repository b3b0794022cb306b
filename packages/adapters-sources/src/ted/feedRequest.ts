import type { ParseResult } from "@tenders/core"
import { Cause, Clock, Effect, Option, Predicate } from "effect"
import { Headers, HttpClient, HttpClientRequest } from "effect/http"
import { parseTedSearchResponse } from "./parse.ts"
import { firstString } from "./values.ts"

/** Why one search call did not give a usable page: worth another attempt (after `delayMs` when the server said so) or not. */
export type TedAttemptFailure =
  | { readonly _tag: "Retry"; readonly message: string; readonly delayMs: number | null }
  | { readonly _tag: "Fatal"; readonly message: string }

/** A usable search response: the JSON body and what parse.ts made of it. */
export interface TedSearchPage {
  readonly body: unknown
  readonly result: ParseResult
}

/** Limits of one search call. */
export interface TedAttemptOptions {
  readonly url: string
  readonly requestTimeoutMs: number
  readonly maxRetryAfterSeconds: number
}

const retry = (message: string, delayMs: number | null = null): TedAttemptFailure => ({
  _tag: "Retry",
  message,
  delayMs
})
const fatal = (message: string): TedAttemptFailure => ({ _tag: "Fatal", message })

const snippet = (text: string): string => {
  const flat = text.replace(/\s+/gu, " ").trim()
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat
}

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    const parsed: unknown = JSON.parse(text)
    return Option.some(parsed)
  } catch {
    return Option.none()
  }
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), null when absent or unreadable. */
export const retryAfterSeconds = (value: string | undefined, nowMs: number): number | null => {
  const text = value?.trim() ?? ""
  if (/^\d+$/u.test(text)) return Number(text)
  const at = text.length > 0 ? Date.parse(text) : Number.NaN
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

/** The `message` (and error type) of a TED error body, else a snippet of the body. */
const errorMessage = (text: string): string =>
  Option.match(parseJson(text), {
    onNone: () => snippet(text),
    onSome: (body) => {
      if (!Predicate.isObject(body)) return snippet(text)
      const type = Predicate.isObject(body["error"]) ? firstString(body["error"]["type"]) : null
      const message = firstString(body["message"]) ?? snippet(text)
      return type === null ? message : `${type}: ${message}`
    }
  })

const okBody = (text: string): TedSearchPage | TedAttemptFailure => {
  const body = Option.getOrUndefined(parseJson(text))
  if (body === undefined) return retry(`response is not valid JSON: ${snippet(text)}`)
  if (Predicate.isObject(body) && body["timedOut"] === true) return retry("TED timed out (partial result)")
  const result = parseTedSearchResponse(body)
  const broken = result.rejected.find((r) => r.where === "ted response")
  return broken === undefined ? { body, result } : retry(broken.reason)
}

const classify = (
  status: number,
  headers: Headers.Headers,
  text: string,
  options: TedAttemptOptions
): Effect.Effect<TedSearchPage, TedAttemptFailure> =>
  Effect.gen(function* () {
    if (status >= 200 && status < 300) {
      const page = okBody(text)
      return "_tag" in page ? yield* Effect.fail(page) : page
    }
    if (status === 400) return yield* Effect.fail(fatal(`TED rejected the query (HTTP 400): ${errorMessage(text)}`))
    if (status === 429) {
      const now = yield* Clock.currentTimeMillis
      const seconds = retryAfterSeconds(Option.getOrUndefined(Headers.get(headers, "retry-after")), now)
      if (seconds !== null && seconds > options.maxRetryAfterSeconds) {
        return yield* Effect.fail(
          fatal(`TED rate limit (HTTP 429): Retry-After ${seconds}s exceeds ${options.maxRetryAfterSeconds}s`)
        )
      }
      return yield* Effect.fail(retry("TED rate limit (HTTP 429)", seconds === null ? null : seconds * 1000))
    }
    if (status === 408 || status >= 500) return yield* Effect.fail(retry(`HTTP ${status}: ${errorMessage(text)}`))
    return yield* Effect.fail(fatal(`HTTP ${status}: ${errorMessage(text)}`))
  })

/** One POST to the search endpoint, timed out after `requestTimeoutMs` (headers and body), classified. */
export const searchOnce = (
  client: HttpClient.HttpClient,
  body: Record<string, unknown>,
  options: TedAttemptOptions
): Effect.Effect<TedSearchPage, TedAttemptFailure> =>
  HttpClientRequest.post(options.url).pipe(
    HttpClientRequest.acceptJson,
    HttpClientRequest.bodyJsonUnsafe(body),
    client.execute,
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
    ),
    Effect.timeout(options.requestTimeoutMs),
    Effect.mapError((error) =>
      Cause.isTimeoutError(error)
        ? retry(`no complete answer within ${options.requestTimeoutMs} ms`)
        : retry(`request failed (${error.reason._tag}): ${error.message}`)
    ),
    Effect.flatMap(({ headers, status, text }) => classify(status, headers, text, options))
  )
