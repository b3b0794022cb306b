import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { parseRetryAfter, type RetryOptions, withRetries } from "../src/index.ts"

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-31T23:59:00Z")

  it("reads delta-seconds", () => {
    assert.strictEqual(parseRetryAfter("1", now), 1)
    assert.strictEqual(parseRetryAfter(" 3600 ", now), 3600)
  })

  it("reads an HTTP date as the seconds until then, never negative", () => {
    assert.strictEqual(parseRetryAfter("Fri, 01 Feb 2030 00:00:00 GMT", now), 60)
    assert.strictEqual(parseRetryAfter("Thu, 31 Jan 2030 23:00:00 GMT", now), 0)
  })

  it("ignores an absent or unreadable value", () => {
    assert.isUndefined(parseRetryAfter(undefined, now))
    assert.isUndefined(parseRetryAfter("soon", now))
    assert.isUndefined(parseRetryAfter("-5", now))
  })
})

/** One scripted attempt: an answer, a lost connection, or no answer at all. */
type Step = { readonly status: number; readonly headers?: Record<string, string> } | "lost" | "silence"

/** An HttpClient that answers each request with the next step (a 200 once they run out); records the requests. */
const scripted = (...steps: ReadonlyArray<Step>) => {
  const queue = [...steps]
  const seen: Array<HttpClientRequest.HttpClientRequest> = []
  const client = HttpClient.make((request) =>
    Effect.suspend(() => {
      seen.push(request)
      const step = queue.shift() ?? { status: 200 }
      if (step === "silence") return Effect.never
      if (step === "lost") {
        return Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({ request, description: "connection reset" })
          })
        )
      }
      const response = new Response("{}", { status: step.status, headers: step.headers ?? {} })
      return Effect.succeed(HttpClientResponse.fromWeb(request, response))
    })
  )
  return { client, seen }
}

/** Sends one request through the retry policy in a fiber. */
const send = (
  client: HttpClient.HttpClient,
  options: RetryOptions,
  method: "GET" | "POST" = "GET",
  url = "https://tenders.test/v1/alerts"
) => {
  const retrying = withRetries(options)(client)
  return Effect.forkChild(method === "GET" ? retrying.get(url) : retrying.post(url))
}

const statusOf = (fiber: Fiber.Fiber<HttpClientResponse.HttpClientResponse, unknown>) =>
  Effect.map(Fiber.join(fiber), (response) => response.status)

describe("withRetries on the TestClock", () => {
  it.effect("waits out a 429 whose Retry-After is 1 s, then returns the later answer", () =>
    Effect.gen(function* () {
      const { client, seen } = scripted({ status: 429, headers: { "retry-after": "1" } }, { status: 200 })
      const fiber = yield* send(client, { baseDelay: 100 })
      yield* TestClock.adjust("999 millis")
      assert.strictEqual(seen.length, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(yield* statusOf(fiber), 200)
      assert.strictEqual(seen.length, 2)
    })
  )

  it.effect("returns a 429 at once when its Retry-After is longer than maxRetryAfter, or missing", () =>
    Effect.gen(function* () {
      const long = scripted({ status: 429, headers: { "retry-after": "61" } })
      const missing = scripted({ status: 429 })
      const fibers = [yield* send(long.client, {}), yield* send(missing.client, {})]
      yield* TestClock.adjust("2 minutes")
      for (const fiber of fibers) assert.strictEqual(yield* statusOf(fiber), 429)
      assert.deepStrictEqual([long.seen.length, missing.seen.length], [1, 1])
    })
  )

  it.effect("backs off exponentially with jitter: 500 ms ± 20 %, then 1 s ± 20 %", () =>
    Effect.gen(function* () {
      const { client, seen } = scripted({ status: 503 }, { status: 502 }, { status: 200 })
      const fiber = yield* send(client, {})
      // First retry after 400-600 ms; the second 800-1200 ms after the first, so between 1200 and 1800 ms.
      yield* TestClock.adjust("399 millis")
      assert.strictEqual(seen.length, 1)
      yield* TestClock.adjust("201 millis")
      assert.strictEqual(seen.length, 2)
      yield* TestClock.adjust("599 millis")
      assert.strictEqual(seen.length, 2)
      yield* TestClock.adjust("601 millis")
      assert.strictEqual(yield* statusOf(fiber), 200)
      assert.strictEqual(seen.length, 3)
    })
  )

  it.effect("retries every 5xx, network errors and timeouts, at most maxRetries times in all", () =>
    Effect.gen(function* () {
      const { client, seen } = scripted({ status: 501 }, "lost", { status: 500 }, "silence", { status: 503 })
      const fiber = yield* send(client, { maxRetries: 3, baseDelay: 100, attemptTimeout: "5 seconds" })
      yield* TestClock.adjust("10 seconds")
      const error = yield* Effect.flip(Fiber.join(fiber))
      assert.strictEqual(seen.length, 4)
      assert.isTrue(HttpClientError.isHttpClientError(error))
      assert.match(String(error), /no response within 5s/u)
    })
  )

  it.effect("replays POST /v1/watchlists after a 503, never after a 500 or a lost connection", () =>
    Effect.gen(function* () {
      const url = "https://tenders.test/v1/watchlists"
      const busy = scripted({ status: 503 }, { status: 201 })
      const replayed = yield* send(busy.client, { baseDelay: 100 }, "POST", url)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* statusOf(replayed), 201)
      const failed = scripted({ status: 500 }, { status: 201 })
      assert.strictEqual(yield* statusOf(yield* send(failed.client, {}, "POST", url)), 500)
      assert.strictEqual(failed.seen.length, 1)
      const lost = scripted("lost", { status: 201 })
      const error = yield* Effect.flip(Fiber.join(yield* send(lost.client, {}, "POST", url)))
      assert.isTrue(HttpClientError.isHttpClientError(error))
      assert.strictEqual(lost.seen.length, 1)
    })
  )
})
