import { assert, describe, it } from "@effect/vitest"
import { SourceStatusStore } from "@tenders/core"
import { makeRecord } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { type CallResult, errorOf, makeTestApi } from "./support.ts"

const rateLimit = (res: CallResult) => {
  const policy = /^"monthly";q=(\d+)$/u.exec(res.headers.get("ratelimit-policy") ?? "")
  const fields = /^"monthly";r=(\d+);t=(\d+)$/u.exec(res.headers.get("ratelimit") ?? "")
  assert.isNotNull(policy, `RateLimit-Policy on ${res.status}: ${res.headers.get("ratelimit-policy")}`)
  assert.isNotNull(fields, `RateLimit on ${res.status}: ${res.headers.get("ratelimit")}`)
  return { limit: Number(policy?.[1]), remaining: Number(fields?.[1]), reset: Number(fields?.[2]) }
}

/** A source-status store that fails the way a broken database does: every search then dies after authorization. */
const BrokenStatusStore = Layer.succeed(
  SourceStatusStore,
  SourceStatusStore.of({ summaries: Effect.die(new Error("connection reset")) })
)

describe("monthly quota at the REST edge", () => {
  it.live("does not count reading /v1/openapi.json, which still needs a key and reports the quota", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("reader@example.com", "free", "rest", 2)
      for (let i = 0; i < 5; i++) {
        const doc = yield* api.call("GET", "/v1/openapi.json", { key })
        assert.strictEqual(doc.status, 200)
        assert.deepStrictEqual([rateLimit(doc).limit, rateLimit(doc).remaining], [2, 2])
      }
      const first = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.deepStrictEqual([first.status, rateLimit(first).remaining], [200, 1])
      const second = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.deepStrictEqual([second.status, rateLimit(second).remaining], [200, 0])
      assert.strictEqual((yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })).status, 429)
      assert.strictEqual((yield* api.call("GET", "/v1/openapi.json", { key })).status, 200)
    }).pipe(Effect.scoped)
  )

  it.live("puts RateLimit and RateLimit-Policy on every answer to an authorized call: 200, 400, 403, 404", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      yield* api.seed([makeRecord({ id: "ted-1-2026" })])
      const { key } = yield* api.createKey("headers@example.com", "free", "rest", 10)
      const answers = [
        yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } }),
        yield* api.call("POST", "/v1/tenders/search", { key, body: { q: 5 } }),
        yield* api.call("POST", "/v1/tenders/search", {
          key,
          rawBody: "{",
          headers: { "content-type": "application/json" }
        }),
        yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road", countries: ["DE"] } }),
        yield* api.call("GET", "/v1/tenders/ted-2-2026", { key }),
        yield* api.call("GET", "/v1/tenders/ted-1-2026", { key }),
        yield* api.call("GET", "/v1/alerts", { key })
      ]
      assert.deepStrictEqual(
        answers.map((res) => res.status),
        [200, 400, 400, 403, 404, 200, 200]
      )
      assert.deepStrictEqual(
        answers.map((res) => rateLimit(res).remaining),
        [9, 8, 7, 6, 5, 4, 3]
      )
      for (const res of answers) assert.strictEqual(rateLimit(res).limit, 10)
      const anonymous = yield* api.call("POST", "/v1/tenders/search", { body: { q: "road" } })
      assert.strictEqual(anonymous.status, 401)
      assert.isNull(anonymous.headers.get("ratelimit"))
    }).pipe(Effect.scoped)
  )

  it.live("puts them on a 500 after authorization too, whose body names a trace id and nothing else", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi(BrokenStatusStore)
      const { key } = yield* api.createKey("broken@example.com", "pro", "rest", 10)
      const res = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.strictEqual(res.status, 500)
      assert.strictEqual(errorOf(res.json).code, "internal")
      assert.match(errorOf(res.json).message, /^Internal error; retry later \(trace [0-9a-f-]{16,}\)$/u)
      assert.deepStrictEqual([rateLimit(res).limit, rateLimit(res).remaining], [10, 9])
    }).pipe(Effect.scoped)
  )

  it.live(
    "answers 429 with Retry-After equal to the RateLimit reset, nothing remaining, and the limit with packs",
    () =>
      Effect.gen(function* () {
        const api = yield* makeTestApi()
        const { key } = yield* api.createKey("spent@example.com", "pro", "rest", 1)
        const ok = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
        const refused = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(errorOf(refused.json).code, "quota_exceeded")
        assert.deepStrictEqual(Object.keys(refused.json as object), ["error"])
        const quota = rateLimit(refused)
        assert.deepStrictEqual([quota.limit, quota.remaining], [1, 0])
        assert.strictEqual(refused.headers.get("retry-after"), String(quota.reset))
        assert.isAtMost(quota.reset, rateLimit(ok).reset)
        assert.isAtLeast(quota.reset, rateLimit(ok).reset - 1)
      }).pipe(Effect.scoped)
  )

  it.live("documents Retry-After and the RateLimit fields on the 429 of every authenticated operation", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("doc@example.com", "free")
      const doc = (yield* api.call("GET", "/v1/openapi.json", { key })).json as {
        paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>
      }
      for (const [path, method] of [
        ["/v1/tenders/search", "post"],
        ["/v1/tenders/{id}", "get"],
        ["/v1/watchlists", "post"],
        ["/v1/alerts", "get"]
      ] as const) {
        const headers = Object.keys(doc.paths[path]?.[method]?.responses["429"]?.headers ?? {}).toSorted()
        assert.deepStrictEqual(headers, ["ratelimit", "ratelimit-policy", "retry-after"], `${method} ${path}`)
      }
    }).pipe(Effect.scoped)
  )
})
