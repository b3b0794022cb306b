import { assert, describe, it } from "@effect/vitest"
import { makeRecord } from "@tenders/core/testing"
import { Effect } from "effect"
import * as fc from "fast-check"
import { type CallOptions, type CallResult, makeTestApi } from "./support.ts"

const clientCodes = ["invalid_input", "unauthorized", "plan_required", "limit_reached", "not_found", "quota_exceeded"]

/** The property: never a 5xx, and every answer that is not a success is the contract's error body. */
const contractShaped = (res: CallResult): boolean => {
  assert.isBelow(res.status, 500, `status ${res.status}: ${res.text}`)
  if (res.status < 300) return true
  const body: unknown = res.json
  assert.isObject(body, res.text)
  assert.deepStrictEqual(Object.keys(body as object), ["error"], res.text)
  const error = (body as { error: unknown }).error
  assert.isObject(error, res.text)
  assert.deepStrictEqual(Object.keys(error as object).toSorted(), ["code", "message"], res.text)
  assert.include(clientCodes, (error as { code: unknown }).code, res.text)
  assert.isString((error as { message: unknown }).message, res.text)
  return true
}

/** Every string input, with NUL, other control characters, lone surrogates and lengths around the limits. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 495, maxLength: 505 }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udc00y", "\u2028\r\n", "ճանապարհ & | :*", "'; --", "%00", "")
)

/** Dates in and far outside PostgreSQL's timestamp range, impossible dates and odd offsets. */
const date = fc.oneof(
  fc.constantFrom(
    "0000-01-01",
    "0001-01-01T00:00+01:00",
    "9999-12-31T23:00-05:00",
    "9999-12-31T23:59:59.999Z",
    "+275760-09-13",
    "-000001-01-01",
    "2026-02-29",
    "2026-12-01T10:00:00+99:99"
  ),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.constantFrom("", "T00:00Z", "T23:59:59.999999999-14:00", "T12:00+14:00", "T24:00Z")
    )
    .map(
      ([y, m, d, time]) =>
        `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}${time}`
    )
)

/** Numbers a float cannot hold as a decimal plainly (`String(1e21)` is "1e+21"), and every other double. */
const number = fc.oneof(
  fc.constantFrom(1e21, 1e308, -1e308, 5e-324, -0, 0.1, Number.MAX_SAFE_INTEGER + 2, 21, 20, 0, -1),
  fc.double(),
  fc.integer()
)

/** Any JSON value, arrays and objects nested up to a few levels. */
const json = fc.jsonValue({ maxDepth: 4 })

const fieldValue = fc.oneof(
  text,
  date,
  number,
  json,
  fc.array(text, { maxLength: 60 }),
  fc.array(fc.constantFrom("DE", "de", "XX", "45000000-7", "4", "452", "EUR"), { maxLength: 60 })
)

const searchFields = ["q", "countries", "cpv", "minBudget", "maxBudget", "deadlineAfter", "budgetCurrency", "limit"]
const filters = fc.dictionary(fc.constantFrom(...searchFields, "country", "__proto__", "constructor"), fieldValue, {
  maxKeys: 8
})

const webhook = fc.oneof(
  text,
  fc.webUrl(),
  fc.constantFrom(
    "https://[64:ff9b::7f00:1]/",
    "https://[::127.0.0.1]/",
    "https://localhost./",
    "https://198.18.0.1/",
    "https://hooks.example.com/a\r\nX-Injected: 1",
    "https://hooks.example.com/\u0000",
    `https://hooks.example.com/${"x".repeat(2100)}`
  )
)

const watchlist = fc.record(
  {
    name: fc.oneof(text, json),
    filters: fc.oneof(filters, json),
    channels: fc.oneof(fc.record({ email: fc.oneof(fc.boolean(), json), webhook }, { requiredKeys: [] }), json)
  },
  { requiredKeys: [] }
)

/** Raw bodies sent as JSON: deep nesting, numbers JSON.parse turns into Infinity, non-objects, garbage. */
const rawBody = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `{"q":"x","countries":${"[".repeat(depth)}${"]".repeat(depth)}}`),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'{"q":'.repeat(depth)}"x"${"}".repeat(depth)}`),
  fc.constantFrom('{"q":"x","minBudget":1e400}', '{"q":"x","limit":1e400}', '"q"', "null", "0", "[]", "{", "\u0000"),
  fc.string({ unit: "binary", maxLength: 200 })
)

/** A tender id as a path segment: plausible ids, any text, raw percent-escapes that do not decode. */
const idSegment = fc.oneof(
  fc.stringMatching(/^(ted|gnumner|eaeu|xyz)-[A-Za-z0-9._-]{1,210}$/u),
  fc.string({ unit: "binary", minLength: 1, maxLength: 300 }).map((id) => encodeURIComponent(id.toWellFormed())),
  fc.constantFrom("%00", "%ED%A0%80", "%FF", "%", "%zz", "ted-1%0A", "..", ".")
)

type Probe = { readonly method: string; readonly path: string; readonly paid: boolean; readonly options: CallOptions }

const asJson = { "content-type": "application/json" }

const probe: fc.Arbitrary<Probe> = fc.oneof(
  fc.record({ paid: fc.boolean(), body: fc.oneof(filters, json) }).map(({ paid, body }) => ({
    method: "POST",
    path: "/v1/tenders/search",
    paid,
    options: { body }
  })),
  fc.record({ paid: fc.boolean(), body: fc.oneof(watchlist, json) }).map(({ paid, body }) => ({
    method: "POST",
    path: "/v1/watchlists",
    paid,
    options: { body }
  })),
  fc
    .record({ paid: fc.boolean(), raw: rawBody, path: fc.constantFrom("/v1/tenders/search", "/v1/watchlists") })
    .map(({ paid, raw, path }) => ({ method: "POST", path, paid, options: { rawBody: raw, headers: asJson } })),
  fc.record({ paid: fc.boolean(), id: idSegment }).map(({ paid, id }) => ({
    method: "GET",
    path: `/v1/tenders/${id}`,
    paid,
    options: {}
  })),
  fc.record({ path: fc.webPath(), method: fc.constantFrom("GET", "POST", "DELETE") }).map(({ path, method }) => ({
    method,
    path: path.startsWith("/") ? path : `/${path}`,
    paid: true,
    options: {}
  }))
)

describe("no 5xx for any input", () => {
  it.live(
    "answers any search, watchlist, raw body, tender id or path with a status below 500 in the contract's shape",
    () =>
      Effect.gen(function* () {
        const api = yield* makeTestApi()
        yield* api.seed([
          makeRecord({ id: "ted-1-2026" }),
          makeRecord({ id: "eaeu-1", source: "eaeu", title: "Ремонт дороги", currency: "RUB" })
        ])
        const paid = yield* api.createKey("fuzz@example.com", "business", "rest", 1_000_000)
        const free = yield* api.createKey("fuzz-free@example.com", "free", "rest", 1_000_000)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(probe, async ({ method, path, paid: isPaid, options }) =>
              contractShaped(await api.fetchCall(method, path, { ...options, key: isPaid ? paid.key : free.key }))
            ),
            { numRuns: 400 }
          )
        )
      }).pipe(Effect.scoped),
    120_000
  )
})
