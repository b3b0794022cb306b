import { assert, describe, it } from "@effect/vitest"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { Effect } from "effect"
import { errorOf, makeTestApi } from "./support.ts"

const records = [
  makeRecord({
    id: "ted-100001-2026",
    title: "Road resurfacing works in Köln",
    budget: "250000",
    lots: [{ title: "Lot 1: asphalt", budget: "100000", currency: "EUR", cpvCodes: ["45233222"] }]
  }),
  makeRecord({
    id: "ted-100002-2026",
    title: "Supply of hospital beds",
    country: "FR",
    budget: "90000",
    cpvCodes: ["33192100"],
    deadline: isoFromNow(2)
  }),
  makeRecord({
    id: "ted-100003-2026",
    title: "Road signs supply",
    country: "PL",
    currency: "PLN",
    budget: "400000",
    cpvCodes: ["34992200"]
  }),
  makeRecord({ id: "ted-100004-2026", title: "Road bridge repair (closed)", status: "closed" }),
  makeRecord({ id: "ted-100005-2026", title: "Road lighting, deadline passed", deadline: isoFromNow(-1) }),
  makeRecord({
    id: "eaeu-0373100034926000123",
    source: "eaeu",
    title: "Ремонт автомобильной дороги",
    country: "RU",
    currency: "RUB",
    budget: "15000000.50",
    okpd2Codes: ["42.11.10.120"],
    url: "https://zakupki.gov.ru/epz/order/notice/ea20/view/common-info.html?regNumber=0373100034926000123"
  })
]

describe("REST contract, in-process", () => {
  it.live("answers 401 in the contract's shape for a missing, malformed, wrong-kind, unknown and revoked key", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const mcp = yield* api.createKey("agent@example.com", "pro", "mcp")
      const search = { body: { q: "road" } }
      const cases = [undefined, "not-a-key", mcp.key, "sk_live_" + "A".repeat(32)]
      for (const key of cases) {
        const res = yield* api.call("POST", "/v1/tenders/search", { ...search, key })
        assert.strictEqual(res.status, 401, String(key))
        assert.deepStrictEqual(Object.keys(res.json as object), ["error"])
        assert.strictEqual(errorOf(res.json).code, "unauthorized")
        assert.deepStrictEqual(Object.keys(errorOf(res.json)).toSorted(), ["code", "message"])
      }
    }).pipe(Effect.scoped)
  )

  it.live("searches open tenders only, with cards carrying exactly the spec's fields", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      yield* api.seed(records)
      const { key } = yield* api.createKey("bid@example.com", "pro")
      const res = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.strictEqual(res.status, 200, res.text)
      const body = res.json as { results: Array<Record<string, unknown>> }
      const ids = body.results.map((r) => r.id)
      assert.deepStrictEqual(ids.toSorted(), ["ted-100001-2026", "ted-100003-2026"])
      const allowed = ["id", "title", "subject", "buyer", "country", "budget", "currency", "deadline", "url", "source"]
      for (const card of body.results) for (const k of Object.keys(card)) assert.include(allowed, k)
      assert.strictEqual(body.results.find((r) => r.id === "ted-100001-2026")?.subject, "Lot 1: asphalt")
      assert.match(res.headers.get("ratelimit") ?? "", /^"monthly";r=\d+;t=\d+$/u)
      assert.strictEqual(res.headers.get("ratelimit-policy"), `"monthly";q=50000`)
    }).pipe(Effect.scoped)
  )

  it.live("refuses every out-of-contract input with 400 invalid_input naming the problem", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("v@example.com", "pro")
      const bad: Array<[unknown, RegExp]> = [
        [{ q: "x", limit: 0 }, /limit/u],
        [{ q: "x", limit: 21 }, /limit/u],
        [{ q: "x", limit: 2.5 }, /limit/u],
        [{ q: "x", minBudget: 10, maxBudget: 5 }, /minBudget/u],
        [{ q: "x", minBudget: -1 }, /minBudget/u],
        [{ q: "x", budgetCurrency: "XYZ" }, /budgetCurrency/u],
        [{ q: "x", deadlineAfter: "2026-13-01" }, /deadlineAfter/u],
        [{ q: "x", deadlineAfter: "2026-02-30" }, /deadlineAfter/u],
        [{ q: "x", deadlineAfter: "tomorrow" }, /deadlineAfter/u],
        [{ q: "x", deadlineAfter: "2026-12-01T10:00:00" }, /deadlineAfter/u],
        [{ q: "x", countries: ["DEU"] }, /countries/u],
        [{ q: "x", countries: Array(51).fill("DE") }, /countries/u],
        [{ q: "x", cpv: ["4"] }, /cpv/u],
        [{ q: "x", cpv: ["45000000-77"] }, /cpv/u],
        [{ q: "x".repeat(501) }, /q/u],
        [{ q: "x", country: ["DE"] }, /unknown property "country".*countries/u],
        [{ q: 5 }, /q/u],
        [{}, /q is required/u],
        [[], /Invalid request/u],
        [null, /Invalid request/u]
      ]
      for (const [body, pattern] of bad) {
        const res = yield* api.call("POST", "/v1/tenders/search", { key, body })
        assert.strictEqual(res.status, 400, JSON.stringify(body))
        assert.strictEqual(errorOf(res.json).code, "invalid_input")
        assert.match(errorOf(res.json).message, pattern, JSON.stringify(body))
      }
      const malformed = yield* api.call("POST", "/v1/tenders/search", {
        key,
        rawBody: '{"q":',
        headers: { "content-type": "application/json" }
      })
      assert.strictEqual(malformed.status, 400)
      assert.strictEqual(errorOf(malformed.json).code, "invalid_input")
      const wrongType = yield* api.call("POST", "/v1/tenders/search", {
        key,
        rawBody: "q=road",
        headers: { "content-type": "text/plain" }
      })
      assert.strictEqual(wrongType.status, 400)
      assert.strictEqual(errorOf(wrongType.json).code, "invalid_input")
      const huge = yield* api.call("POST", "/v1/tenders/search", {
        key,
        rawBody: JSON.stringify({ q: "x", pad: "y".repeat(70_000) }),
        headers: { "content-type": "application/json" }
      })
      assert.strictEqual(huge.status, 400)
      assert.match(errorOf(huge.json).message, /KiB/u)
    }).pipe(Effect.scoped)
  )

  it.live("answers unknown routes and methods with 404 not_found", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      for (const [method, path] of [
        ["GET", "/nope"],
        ["DELETE", "/v1/tenders/search"],
        ["PUT", "/health"]
      ] as const) {
        const res = yield* api.call(method, path)
        assert.strictEqual(res.status, 404, `${method} ${path}`)
        assert.strictEqual(errorOf(res.json).code, "not_found")
      }
    }).pipe(Effect.scoped)
  )

  it.live("refuses structured filters on Free with 403 plan_required, but 400 wins for malformed input", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("free@example.com", "free")
      const plain = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.strictEqual(plain.status, 200)
      const filtered = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road", countries: ["DE"] } })
      assert.strictEqual(filtered.status, 403)
      assert.strictEqual(errorOf(filtered.json).code, "plan_required")
      const both = yield* api.call("POST", "/v1/tenders/search", {
        key,
        body: { q: "road", countries: ["DE"], limit: 99 }
      })
      assert.strictEqual(both.status, 400)
    }).pipe(Effect.scoped)
  )

  it.live("returns the full tender with plan-dependent fields, and 404 for an unknown id", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      yield* api.seed(records)
      const pro = yield* api.createKey("pro@example.com", "pro")
      const free = yield* api.createKey("free@example.com", "free")
      const paid = yield* api.call("GET", "/v1/tenders/eaeu-0373100034926000123", { key: pro.key })
      assert.strictEqual(paid.status, 200)
      const full = paid.json as Record<string, unknown>
      assert.deepStrictEqual(full.okpd2Codes, ["42.11.10.120"])
      assert.deepStrictEqual(full.lots, [])
      assert.strictEqual(full.budget, "15000000.50")
      assert.strictEqual(full.status, "open")
      const freeCard = (yield* api.call("GET", "/v1/tenders/ted-100001-2026", { key: free.key })).json as Record<
        string,
        unknown
      >
      for (const k of ["cpvCodes", "okpd2Codes", "lots", "docsUrl"]) assert.notProperty(freeCard, k)
      assert.isString(freeCard.hint)
      const closed = (yield* api.call("GET", "/v1/tenders/ted-100005-2026", { key: pro.key })).json as Record<
        string,
        unknown
      >
      assert.strictEqual(closed.status, "closed")
      const missing = yield* api.call("GET", "/v1/tenders/ted-999999-2026", { key: pro.key })
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(errorOf(missing.json).code, "not_found")
    }).pipe(Effect.scoped)
  )

  it.live("stops at the monthly limit with 429 quota_exceeded, Retry-After and an exact count under concurrency", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("small@example.com", "pro", "rest", 5)
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } }),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(results.filter((r) => r.status === 200).length, 5)
      const refused = results.filter((r) => r.status === 429)
      assert.strictEqual(refused.length, 15)
      assert.strictEqual(errorOf(refused[0]?.json).code, "quota_exceeded")
      assert.match(errorOf(refused[0]?.json).message, /\$5 pack/u)
      assert.match(refused[0]?.headers.get("retry-after") ?? "", /^\d+$/u)
    }).pipe(Effect.scoped)
  )

  it.live("serves health without a key and OpenAPI only with one", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const health = yield* api.call("GET", "/health")
      assert.strictEqual(health.status, 200)
      assert.deepStrictEqual(
        (health.json as { sources: Array<{ code: string }> }).sources.map((s) => s.code),
        ["ted", "gnumner", "eaeu"]
      )
      const anonymous = yield* api.call("GET", "/v1/openapi.json")
      assert.strictEqual(anonymous.status, 401)
      const { key } = yield* api.createKey("docs@example.com", "free")
      const doc = yield* api.call("GET", "/v1/openapi.json", { key })
      assert.strictEqual(doc.status, 200)
      assert.strictEqual((doc.json as { openapi: string }).openapi, "3.1.0")
    }).pipe(Effect.scoped)
  )

  it.live(
    "serves /docs, Scalar's reference of the API with the OpenAPI document, the same to concurrent first readers",
    () =>
      Effect.gen(function* () {
        const api = yield* makeTestApi()
        const pages = yield* Effect.all([api.call("GET", "/docs"), api.call("GET", "/docs")], { concurrency: 2 })
        const again = yield* api.call("GET", "/docs")
        for (const page of [...pages, again]) {
          assert.strictEqual(page.status, 200)
          assert.include(page.headers.get("content-type") ?? "", "text/html")
          assert.include(page.text, "Scalar.createApiReference")
          assert.include(page.text, "/v1/tenders/search")
          assert.strictEqual(page.text, again.text)
        }
        assert.strictEqual((yield* api.call("POST", "/docs")).status, 404)
      }).pipe(Effect.scoped)
  )
})
