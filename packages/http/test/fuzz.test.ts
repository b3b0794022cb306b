import { assert, describe, it } from "@effect/vitest"
import { makeRecord } from "@tenders/core/testing"
import { Effect } from "effect"
import * as fc from "fast-check"
import { makeTestApi } from "./support.ts"

const contractShape = (status: number, json: unknown) => {
  assert.isBelow(status, 500, `status ${status}: ${JSON.stringify(json)}`)
  if (status === 200) return
  const body = json as { error?: { code?: unknown; message?: unknown } }
  assert.deepStrictEqual(Object.keys(body), ["error"])
  assert.include(
    ["invalid_input", "unauthorized", "plan_required", "limit_reached", "not_found", "quota_exceeded"],
    body.error?.code
  )
  assert.isString(body.error?.message)
}

const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.double(),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 60 }),
  fc.constantFrom(
    "2026-12-01",
    "2026-12-01T10:00:00+04:00",
    "EUR",
    "XYZ",
    "45000000-7",
    "DE",
    -1,
    0,
    21,
    1e308,
    "\u0000",
    "ճանապարհ & | :*"
  )
)
const searchBody = fc.dictionary(
  fc.constantFrom(
    "q",
    "countries",
    "cpv",
    "minBudget",
    "maxBudget",
    "deadlineAfter",
    "budgetCurrency",
    "limit",
    "country",
    "__proto__",
    "constructor"
  ),
  fieldValue,
  { maxKeys: 8 }
)

describe("no 5xx for any input", () => {
  it.live(
    "answers arbitrary search bodies, raw bytes, paths and ids with a contract-shaped status below 500",
    () =>
      Effect.gen(function* () {
        const api = yield* makeTestApi
        yield* api.seed([
          makeRecord({ id: "ted-1-2026" }),
          makeRecord({ id: "eaeu-1", source: "eaeu", title: "Ремонт дороги", currency: "RUB" })
        ])
        const { key } = yield* api.createKey("fuzz@example.com", "business", "rest", 1_000_000)
        const free = yield* api.createKey("fuzz-free@example.com", "free", "rest", 1_000_000)
        const samples = [
          ...fc.sample(searchBody, 150).map((body) => ({ key, body })),
          ...fc.sample(searchBody, 50).map((body) => ({ key: free.key, body })),
          ...fc.sample(fc.jsonValue(), 50).map((body) => ({ key, body }))
        ]
        for (const sample of samples) {
          const res = yield* api.call("POST", "/v1/tenders/search", sample)
          contractShape(res.status, res.json)
        }
        for (const raw of fc.sample(fc.string({ maxLength: 200 }), 50)) {
          const res = yield* api.call("POST", "/v1/tenders/search", {
            key,
            rawBody: raw,
            headers: { "content-type": "application/json" }
          })
          contractShape(res.status, res.json)
        }
        for (const id of fc.sample(fc.string({ minLength: 1, maxLength: 300 }), 100)) {
          const res = yield* api.call("GET", `/v1/tenders/${encodeURIComponent(id)}`, { key })
          contractShape(res.status, res.json)
        }
        for (const path of fc.sample(fc.webPath(), 50)) {
          const res = yield* api.call("GET", path.startsWith("/") ? path : `/${path}`, { key })
          if (res.status !== 200) contractShape(res.status, res.json)
        }
      }).pipe(Effect.scoped),
    120_000
  )
})
