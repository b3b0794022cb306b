import { assert, describe, it } from "@effect/vitest"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { Effect } from "effect"
import { errorOf, makeTestApi } from "./support.ts"

describe("POST /v1/watchlists", () => {
  it.live("saves a watchlist and counts every open match, not capped at 20", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      yield* api.seed([
        ...Array.from({ length: 25 }, (_, i) =>
          makeRecord({ id: `ted-${500 + i}-2026`, title: "Winter road maintenance", deadline: isoFromNow(5 + i) })
        ),
        makeRecord({ id: "ted-600-2026", title: "Winter road maintenance", status: "cancelled" })
      ])
      const { key } = yield* api.createKey("wl@example.com", "pro")
      const res = yield* api.call("POST", "/v1/watchlists", {
        key,
        body: { name: "Roads", filters: { q: "road", countries: ["de"] } }
      })
      assert.strictEqual(res.status, 201, res.text)
      const body = res.json as { watchlistId: string; estimatedMatches: number; hint?: string }
      assert.match(body.watchlistId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u)
      assert.strictEqual(body.estimatedMatches, 25)
      assert.deepStrictEqual(Object.keys(body).toSorted(), ["estimatedMatches", "watchlistId"])
      const converted = yield* api.call("POST", "/v1/watchlists", {
        key,
        body: {
          name: "Big",
          filters: { minBudget: 1e9, budgetCurrency: "EUR" },
          channels: { webhook: "https://hooks.example.com/tenders" }
        }
      })
      assert.strictEqual(converted.status, 201, converted.text)
      const hint = (converted.json as { hint: string }).hint
      assert.include(hint, "No open tender matches")
      assert.include(hint, "EUR at reference rates")
    }).pipe(Effect.scoped)
  )

  it.live("refuses filters that match everything, bad names and unsafe webhooks with 400 invalid_input", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("bad@example.com", "business")
      const cases: Array<[unknown, RegExp]> = [
        [{ name: "All", filters: {} }, /match every tender/u],
        [{ name: "All", filters: { q: " & | " } }, /match every tender/u],
        [{ name: "All", filters: { countries: [] } }, /match every tender/u],
        [{ name: "", filters: { q: "road" } }, /name/u],
        [{ name: "x".repeat(101), filters: { q: "road" } }, /name/u],
        [{ name: "A", filters: { q: "road", country: ["DE"] } }, /unknown property "filters.country".*countries/u],
        [{ name: "A", filters: { q: "road", minBudget: 5, maxBudget: 1 } }, /minBudget/u],
        [{ name: "A" }, /filters is required/u],
        [{ name: "A", filters: { q: "road" }, channels: { webhook: "http://hooks.example.com/x" } }, /https/u],
        [{ name: "A", filters: { q: "road" }, channels: { webhook: "not a url" } }, /absolute URL/u],
        ...[
          "https://127.0.0.1/x",
          "https://10.1.2.3/x",
          "https://169.254.169.254/latest",
          "https://[::1]/x",
          "https://[::ffff:192.168.0.1]/x",
          "https://[fd00::1]/x",
          "https://localhost/x"
        ].map((webhook): [unknown, RegExp] => [
          { name: "A", filters: { q: "road" }, channels: { webhook } },
          /must not point to/u
        ]),
        [
          { name: "A", filters: { q: "road" }, channels: { webhook: `https://example.com/${"x".repeat(2048)}` } },
          /webhook/u
        ]
      ]
      for (const [body, pattern] of cases) {
        const res = yield* api.call("POST", "/v1/watchlists", { key, body })
        assert.strictEqual(res.status, 400, JSON.stringify(body).slice(0, 120))
        assert.strictEqual(errorOf(res.json).code, "invalid_input")
        assert.match(errorOf(res.json).message, pattern, JSON.stringify(body).slice(0, 120))
      }
    }).pipe(Effect.scoped)
  )

  it.live(
    "on Free, refuses structured filters and webhooks (403 plan_required) and a 4th watchlist (403 limit_reached)",
    () =>
      Effect.gen(function* () {
        const api = yield* makeTestApi()
        const { key } = yield* api.createKey("free-wl@example.com", "free")
        const filtered = yield* api.call("POST", "/v1/watchlists", {
          key,
          body: { name: "A", filters: { q: "road", cpv: ["45"] } }
        })
        assert.deepStrictEqual([filtered.status, errorOf(filtered.json).code], [403, "plan_required"])
        const hooked = yield* api.call("POST", "/v1/watchlists", {
          key,
          body: { name: "A", filters: { q: "road" }, channels: { webhook: "https://hooks.example.com/x" } }
        })
        assert.deepStrictEqual([hooked.status, errorOf(hooked.json).code], [403, "plan_required"])
        const malformed = yield* api.call("POST", "/v1/watchlists", {
          key,
          body: { name: "", filters: { q: "road", cpv: ["45"] } }
        })
        assert.strictEqual(malformed.status, 400)
        for (const name of ["one", "two", "three"]) {
          const ok = yield* api.call("POST", "/v1/watchlists", { key, body: { name, filters: { q: "road" } } })
          assert.strictEqual(ok.status, 201, ok.text)
        }
        const fourth = yield* api.call("POST", "/v1/watchlists", {
          key,
          body: { name: "four", filters: { q: "road" } }
        })
        assert.deepStrictEqual([fourth.status, errorOf(fourth.json).code], [403, "limit_reached"])
        assert.include(errorOf(fourth.json).message, "3 watchlists")
      }).pipe(Effect.scoped)
  )

  it.live("documents the endpoint in OpenAPI with 201 and every error status", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("doc-wl@example.com", "free")
      const doc = (yield* api.call("GET", "/v1/openapi.json", { key })).json as {
        paths: Record<string, { post?: { responses: Record<string, unknown> } }>
      }
      assert.deepStrictEqual(Object.keys(doc.paths["/v1/watchlists"]?.post?.responses ?? {}).toSorted(), [
        "201",
        "400",
        "401",
        "403",
        "429",
        "500"
      ])
    }).pipe(Effect.scoped)
  )
})
