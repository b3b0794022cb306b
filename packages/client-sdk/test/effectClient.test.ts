import { assert, describe, it } from "@effect/vitest"
import { Internal, NotFound, QuotaExceeded, Unauthorized } from "@tenders/core"
import { ConfigProvider, Effect, Fiber, Layer } from "effect"
import { FetchHttpClient, HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import { TendersClient } from "../src/index.ts"
import { alert, card, fullTender } from "./fixtures.ts"

/** A scripted `fetch`: each call takes the next reply; the requests are kept. */
const scriptedFetch = (...replies: ReadonlyArray<() => Response>) => {
  const queue = [...replies]
  const seen: Array<Request> = []
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    seen.push(request)
    const next = queue.shift()
    if (next === undefined) throw new TypeError("fetch failed: no reply scripted")
    return next()
  }
  return { fetch, seen }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })
const contractError = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: code } }, headers)
const networkError = () => {
  throw new TypeError("fetch failed")
}

/** The client over a scripted fetch. */
const clientWith = (fetch: ReturnType<typeof scriptedFetch>["fetch"]) =>
  TendersClient.useSync((client) => client).pipe(
    Effect.provide(
      TendersClient.layer({ baseUrl: "https://tenders.test", apiKey: "sk_live_test", retry: { baseDelay: 100 } })
    ),
    Effect.provideService(FetchHttpClient.Fetch, fetch)
  )

/** Lets scripted fetch promises and response bodies settle (no clock time passes). */
const settle = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))).pipe(
  Effect.repeat({ times: 20 })
)

describe("Effect client", () => {
  it.effect("decodes a search response and sends the key as a bearer token", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scriptedFetch(json(200, { results: [card] }))
      const client = yield* clientWith(fetch)
      const response = yield* client.searchTenders({ q: "road" })
      assert.strictEqual(response.results[0]?.budget, "1250000.50")
      assert.strictEqual(seen[0]?.headers.get("authorization"), "Bearer sk_live_test")
      assert.strictEqual(seen[0]?.url, "https://tenders.test/v1/tenders/search")
    })
  )

  it.effect("fails with the contract's error classes, usable with catchTag", () =>
    Effect.gen(function* () {
      const { fetch } = scriptedFetch(
        contractError(404, "not_found"),
        contractError(401, "unauthorized"),
        json(200, fullTender)
      )
      const client = yield* clientWith(fetch)
      const missing = yield* Effect.flip(client.getTender("ted-0"))
      assert.instanceOf(missing, NotFound)
      const unauthorized = yield* Effect.flip(client.listAlerts())
      assert.instanceOf(unauthorized, Unauthorized)
      const recovered = yield* client
        .getTender("ted-479730-2026")
        .pipe(Effect.catchTag("NotFound", () => Effect.succeed(undefined)))
      assert.strictEqual(recovered?.status, "open")
    })
  )

  it.effect("waits out a 429 with Retry-After 1 s on the clock, then succeeds", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scriptedFetch(
        contractError(429, "quota_exceeded", { "retry-after": "1" }),
        json(200, { alerts: [alert] })
      )
      const client = yield* clientWith(fetch)
      const fiber = yield* Effect.forkChild(client.listAlerts())
      yield* settle
      yield* TestClock.adjust("999 millis")
      yield* settle
      assert.strictEqual(seen.length, 1)
      yield* TestClock.adjust("1 millis")
      const response = yield* Fiber.join(fiber)
      assert.strictEqual(response.alerts.length, 1)
      assert.strictEqual(seen.length, 2)
    })
  )

  it.effect("raises QuotaExceeded at once when Retry-After is an hour", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scriptedFetch(
        contractError(429, "quota_exceeded", { "retry-after": "3600" }),
        json(200, { alerts: [] })
      )
      const client = yield* clientWith(fetch)
      const error = yield* Effect.flip(client.listAlerts())
      assert.instanceOf(error, QuotaExceeded)
      assert.strictEqual(seen.length, 1)
    })
  )

  it.effect("retries 503 and a network error with backoff, then succeeds", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scriptedFetch(contractError(503, "internal"), networkError, json(200, { results: [] }))
      const client = yield* clientWith(fetch)
      const fiber = yield* Effect.forkChild(client.searchTenders({ q: "road" }))
      for (let step = 0; step < 10 && seen.length < 3; step++) {
        yield* settle
        yield* TestClock.adjust("100 millis")
      }
      const response = yield* Fiber.join(fiber)
      assert.deepStrictEqual(response.results, [])
      assert.strictEqual(seen.length, 3)
    })
  )

  it.effect("after the last retry, a 500 is Internal and a lost connection an HttpClientError", () =>
    Effect.gen(function* () {
      const { fetch } = scriptedFetch(contractError(500, "internal"), networkError)
      const client = yield* TendersClient.useSync((client) => client).pipe(
        Effect.provide(TendersClient.layer({ baseUrl: "https://tenders.test", retry: { maxRetries: 0 } })),
        Effect.provideService(FetchHttpClient.Fetch, fetch)
      )
      assert.instanceOf(yield* Effect.flip(client.health()), Internal)
      const lost = yield* Effect.flip(client.health())
      assert.isTrue(HttpClientError.isHttpClientError(lost))
    })
  )

  it.effect("builds from TENDERS_BASE_URL and TENDERS_API_KEY with layerConfig", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scriptedFetch(json(200, { alerts: [] }))
      const client = yield* TendersClient.useSync((client) => client).pipe(
        Effect.provide(
          TendersClient.layerConfig.pipe(
            Layer.provide(
              ConfigProvider.layer(
                ConfigProvider.fromEnvRecord({ TENDERS_BASE_URL: "https://cfg.test", TENDERS_API_KEY: "sk_live_cfg" })
              )
            )
          )
        ),
        Effect.provideService(FetchHttpClient.Fetch, fetch)
      )
      yield* client.listAlerts()
      assert.strictEqual(seen[0]?.url, "https://cfg.test/v1/alerts")
      assert.strictEqual(seen[0]?.headers.get("authorization"), "Bearer sk_live_cfg")
    })
  )
})
