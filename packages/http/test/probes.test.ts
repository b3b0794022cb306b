import { assert, describe, it } from "@effect/vitest"
import { refusedWebhookProbes } from "@tenders/core/testing"
import { Effect } from "effect"
import { errorOf, makeTestApi } from "./support.ts"

// The inputs issue 9 names as answering 500 or being accepted when they must not: each must be a 4xx in the
// contract's shape, on search and on watchlist creation alike.
const instants = ["0000-01-01", "0001-01-01T00:00+01:00", "9999-12-31T23:00-05:00"]
const texts = ["road\u0000works", "road\ud800", "\udc00road"]
const webhooks = [
  ...refusedWebhookProbes,
  "https://hooks.example.com/a\r\nX-Injected: 1",
  "https:///x",
  "https://x/hook"
]

const expectInvalid = (result: { readonly status: number; readonly json: unknown; readonly text: string }) => {
  assert.strictEqual(result.status, 400, result.text)
  const error = errorOf(result.json)
  assert.deepStrictEqual(Object.keys(result.json as object), ["error"])
  assert.strictEqual(error.code, "invalid_input")
  assert.match(error.message, /^Invalid request: /u)
}

describe("issue 9's probe inputs at the REST edge", () => {
  it.live("answers deadlineAfter outside the accepted range with 400 invalid_input on search and watchlists", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("instants@example.com", "pro")
      for (const deadlineAfter of instants) {
        expectInvalid(yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road", deadlineAfter } }))
        const body = { name: "w", filters: { q: "road", deadlineAfter } }
        expectInvalid(yield* api.call("POST", "/v1/watchlists", { key, body }))
      }
    }).pipe(Effect.scoped)
  )

  it.live("answers a NUL or a lone surrogate in a watchlist's name, q or webhook with 400, and in search's q", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("text@example.com", "pro")
      for (const text of texts) {
        expectInvalid(yield* api.call("POST", "/v1/tenders/search", { key, body: { q: text } }))
        expectInvalid(yield* api.call("POST", "/v1/watchlists", { key, body: { name: text, filters: { q: "road" } } }))
        expectInvalid(yield* api.call("POST", "/v1/watchlists", { key, body: { name: "w", filters: { q: text } } }))
        const channels = { webhook: `https://hooks.example.com/${text}` }
        const body = { name: "w", filters: { q: "road" }, channels }
        expectInvalid(yield* api.call("POST", "/v1/watchlists", { key, body }))
      }
    }).pipe(Effect.scoped)
  )

  it.live("refuses every non-public webhook target and a URL with CR/LF at creation", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("hooks@example.com", "pro")
      for (const webhook of webhooks) {
        const body = { name: "w", filters: { q: "road" }, channels: { webhook } }
        expectInvalid(yield* api.call("POST", "/v1/watchlists", { key, body }))
      }
      const body = { name: "w", filters: { q: "road" }, channels: { webhook: "https://hooks.example.com/x" } }
      assert.strictEqual((yield* api.call("POST", "/v1/watchlists", { key, body })).status, 201)
    }).pipe(Effect.scoped)
  )

  it.live("keeps a minBudget of 1e21 and 1e308 a valid, narrowing filter (no 500, no dropped bound)", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("budgets@example.com", "pro")
      for (const minBudget of [1e21, 1e308]) {
        const search = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "", minBudget } })
        assert.strictEqual(search.status, 200, search.text)
        const body = { name: "w", filters: { minBudget } }
        const created = yield* api.call("POST", "/v1/watchlists", { key, body })
        assert.strictEqual(created.status, 201, created.text)
        assert.strictEqual((created.json as { estimatedMatches: number }).estimatedMatches, 0)
      }
    }).pipe(Effect.scoped)
  )
})
