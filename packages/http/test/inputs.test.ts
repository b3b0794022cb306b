import { assert, describe, it } from "@effect/vitest"
import { WebhookAllowHosts } from "@tenders/core"
import { makeRecord } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { errorOf, makeTestApi } from "./support.ts"

// U+1F6A7 (construction sign): one character, two UTF-16 code units.
const emoji = "\u{1F6A7}"

describe("input limits and identifiers at the REST edge", () => {
  it.live("counts q's 500 characters as the published JSON Schema does: 500 emoji pass, 501 are invalid_input", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("emoji@example.com", "pro")
      const fits = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: emoji.repeat(500) } })
      assert.strictEqual(fits.status, 200, fits.text)
      const over = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: emoji.repeat(501) } })
      assert.strictEqual(over.status, 400, over.text)
      assert.strictEqual(errorOf(over.json).code, "invalid_input")
      assert.match(errorOf(over.json).message, /^Invalid request: q: .*500 characters/u)
    }).pipe(Effect.scoped)
  )

  it.live("counts a watchlist name's 100 characters the same way", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("emoji-wl@example.com", "pro")
      const named = (name: string) => ({ name, filters: { q: "road" } })
      const fits = yield* api.call("POST", "/v1/watchlists", { key, body: named(emoji.repeat(100)) })
      assert.strictEqual(fits.status, 201, fits.text)
      const over = yield* api.call("POST", "/v1/watchlists", { key, body: named(emoji.repeat(101)) })
      assert.strictEqual(over.status, 400, over.text)
      assert.match(errorOf(over.json).message, /name: .*100 characters/u)
    }).pipe(Effect.scoped)
  )

  it.live("names an unknown property and the field it was likely meant to be, from the body's own schema", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      const { key } = yield* api.createKey("typo@example.com", "pro")
      const cases: ReadonlyArray<[string, unknown, string]> = [
        ["/v1/watchlists", { nmae: "A", filters: { q: "road" } }, 'unknown property "nmae" (did you mean "name"?)'],
        [
          "/v1/watchlists",
          { name: "A", filters: { q: "road", contries: ["DE"] } },
          'unknown property "filters.contries" (did you mean "countries"?)'
        ],
        [
          "/v1/watchlists",
          { name: "A", filters: { q: "road" }, channels: { webhok: "https://hooks.example.com/x" } },
          'unknown property "channels.webhok" (did you mean "webhook"?)'
        ],
        ["/v1/tenders/search", { q: "road", limt: 5 }, 'unknown property "limt" (did you mean "limit"?)'],
        ["/v1/tenders/search", { q: "road", zzzzzz: 1 }, 'unknown property "zzzzzz"']
      ]
      for (const [path, body, message] of cases) {
        const res = yield* api.call("POST", path, { key, body })
        assert.strictEqual(res.status, 400, res.text)
        assert.include(errorOf(res.json).message, message)
      }
      const plain = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road", zzzzzz: 1 } })
      assert.notInclude(errorOf(plain.json).message, "did you mean")
    }).pipe(Effect.scoped)
  )

  it.live("decodes the tender id at the edge: not a tender id is 400 invalid_input, an unknown one 404", () =>
    Effect.gen(function* () {
      const api = yield* makeTestApi()
      yield* api.seed([makeRecord({ id: "ted-479730-2026" })])
      const { key } = yield* api.createKey("ids@example.com", "pro")
      assert.strictEqual((yield* api.call("GET", "/v1/tenders/ted-479730-2026", { key })).status, 200)
      for (const id of ["ted-1-2026", `gnumner-${"a".repeat(200)}`]) {
        const unknown = yield* api.call("GET", `/v1/tenders/${id}`, { key })
        assert.deepStrictEqual([unknown.status, errorOf(unknown.json).code], [404, "not_found"], id)
        assert.include(errorOf(unknown.json).message, `No tender with id "${id}"`)
      }
      for (const id of ["nope-1", "ted-", `ted-${"1".repeat(201)}`, "ted-1%202026", "%00", "ted-%E2%82%AC"]) {
        const res = yield* api.call("GET", `/v1/tenders/${id}`, { key })
        assert.strictEqual(res.status, 400, `${id}: ${res.text}`)
        assert.strictEqual(errorOf(res.json).code, "invalid_input")
        assert.match(errorOf(res.json).message, /^Invalid request: id/u, id)
      }
    }).pipe(Effect.scoped)
  )

  it.live("lets a webhook host the operator allowed (WebhookAllowHosts from the composition root) through", () =>
    Effect.gen(function* () {
      const body = { name: "Local", filters: { q: "road" }, channels: { webhook: "https://127.0.0.1:8443/hook" } }
      const allowed = yield* makeTestApi(Layer.succeed(WebhookAllowHosts, ["127.0.0.1:8443"]))
      const { key } = yield* allowed.createKey("ops@example.com", "pro")
      const created = yield* allowed.call("POST", "/v1/watchlists", { key, body })
      assert.strictEqual(created.status, 201, created.text)
      const plain = yield* makeTestApi()
      const other = yield* plain.createKey("ops@example.com", "pro")
      const refused = yield* plain.call("POST", "/v1/watchlists", { key: other.key, body })
      assert.strictEqual(refused.status, 400, refused.text)
    }).pipe(Effect.scoped)
  )
})
