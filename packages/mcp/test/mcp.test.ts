import { assert, describe, it } from "@effect/vitest"
import { type OpenAlert, SourceStatusStore, WatchlistId } from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { DateTime, Duration, Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { OriginRefused } from "../src/index.ts"
import { endpoint, makeTestMcp, textJson, toolError } from "./support.ts"

const records = [
  makeRecord({
    id: "ted-100001-2026",
    title: "Road resurfacing works in Köln",
    budget: "250000",
    lots: [{ title: "Lot 1: asphalt", budget: "100000", currency: "EUR", cpvCodes: ["45233222"] }],
    docsUrl: ["https://ted.europa.eu/docs/1.pdf"]
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
  })
]

const alert: OpenAlert = {
  watchlistId: WatchlistId.make("0b7c3f2e-6a7d-4f6e-9a51-2f3c0d7e8a11"),
  watchlistName: "Roads",
  reason: "new",
  createdAt: DateTime.makeUnsafe(isoFromNow(-1)),
  tender: {
    ...makeRecord({ id: "ted-100001-2026", title: "Road resurfacing works in Köln" }),
    updatedAt: isoFromNow(-1)
  }
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}

const post = (headers: Record<string, string>, body: unknown = initialize) => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  body: JSON.stringify(body)
})

/** The body of a refused origin, decoded by the MCP transport's own schema (never the REST contract's). */
const refusedBody = (response: Response) =>
  Effect.promise(() => response.json()).pipe(Effect.flatMap(Schema.decodeUnknownEffect(OriginRefused)))

// Tests over records and alerts dated from the wall clock (isoFromNow) run on it (it.live); the others on TestClock.
describe("MCP endpoint, in-process", () => {
  it.live("lists exactly the four tools, with descriptions, on the 2025 and the 2026-07-28 protocol", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("agent@example.com", "pro")
      for (const negotiation of [undefined, { mode: "auto" as const }]) {
        const client = yield* mcp.connect(key, negotiation)
        assert.strictEqual(client.getProtocolEra(), negotiation === undefined ? "legacy" : "modern")
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(
          tools.map((t) => t.name),
          ["search_tenders", "get_tender", "add_to_watchlist", "get_deadline_alerts"]
        )
        for (const tool of tools) {
          assert.isAbove(tool.description?.length ?? 0, 100, tool.name)
          assert.strictEqual(tool.inputSchema.type, "object")
          assert.strictEqual(tool.outputSchema?.type, "object")
        }
        assert.include(client.getInstructions() ?? "", "quota_exceeded")
      }
    }).pipe(Effect.scoped)
  )

  it.live("calls each tool with an MCP token and answers the REST response bodies as structured content", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp({ alerts: [alert] })
      yield* mcp.seed(records)
      const { key } = yield* mcp.createKey("pro@example.com", "pro")
      for (const negotiation of [undefined, { mode: "auto" as const }]) {
        const client = yield* mcp.connect(key, negotiation)

        const search = yield* mcp.call(client, "search_tenders", { q: "road", countries: ["DE", "PL"], limit: 5 })
        assert.notStrictEqual(search.isError, true, JSON.stringify(search))
        assert.deepStrictEqual(textJson(search), search.structuredContent)
        const results = (search.structuredContent as { results: Array<{ id: string; subject?: string }> }).results
        assert.deepStrictEqual(results.map((r) => r.id).toSorted(), ["ted-100001-2026", "ted-100003-2026"])
        assert.strictEqual(results.find((r) => r.id === "ted-100001-2026")?.subject, "Lot 1: asphalt")

        const tender = yield* mcp.call(client, "get_tender", { id: "ted-100001-2026" })
        assert.notStrictEqual(tender.isError, true, JSON.stringify(tender))
        const full = tender.structuredContent as Record<string, unknown>
        assert.strictEqual(full["status"], "open")
        assert.deepStrictEqual(full["docsUrl"], ["https://ted.europa.eu/docs/1.pdf"])
        assert.deepStrictEqual(full["cpvCodes"], ["45233140"])

        const watchlist = yield* mcp.call(client, "add_to_watchlist", {
          name: "Roads",
          filters: { q: "road", countries: ["DE"] }
        })
        assert.notStrictEqual(watchlist.isError, true, JSON.stringify(watchlist))
        const created = watchlist.structuredContent as { watchlistId: string; estimatedMatches: number }
        assert.match(created.watchlistId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u)
        assert.strictEqual(created.estimatedMatches, 1)

        const alerts = yield* mcp.call(client, "get_deadline_alerts", {})
        assert.notStrictEqual(alerts.isError, true, JSON.stringify(alerts))
        const listed = (
          alerts.structuredContent as {
            alerts: Array<{ watchlistName: string; reason: string; tender: Record<string, unknown> }>
          }
        ).alerts
        assert.deepStrictEqual(
          listed.map((a) => [a.watchlistName, a.reason, a.tender["id"]]),
          [["Roads", "new", "ted-100001-2026"]]
        )
        assert.notProperty(listed[0]?.tender, "cpvCodes")
      }
    }).pipe(Effect.scoped)
  )

  it.live("answers HTTP 401 in the contract's shape for a missing, malformed, REST, unknown token", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const rest = yield* mcp.createKey("rest@example.com", "pro", "rest")
      const cases: ReadonlyArray<Record<string, string>> = [
        {},
        { authorization: "Bearer not-a-token" },
        { authorization: "Basic dXNlcjpwYXNz" },
        { authorization: `Bearer ${rest.key}` },
        { authorization: `Bearer mcp_live_${"A".repeat(32)}` }
      ]
      for (const headers of cases) {
        const response = yield* Effect.promise(() => mcp.fetch(endpoint, post(headers)))
        assert.strictEqual(response.status, 401, JSON.stringify(headers))
        // RFC 9728: where an OAuth client learns how to get a token; a token that was sent is called invalid.
        const sent = "authorization" in headers && headers["authorization"]?.startsWith("Bearer ") === true
        assert.strictEqual(
          response.headers.get("www-authenticate"),
          `Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="mcp"` +
            (sent ? `, error="invalid_token"` : "")
        )
        const body = (yield* Effect.promise(() => response.json())) as { error: { code: string; message: string } }
        assert.deepStrictEqual(Object.keys(body), ["error"])
        assert.strictEqual(body.error.code, "unauthorized")
        assert.isString(body.error.message)
      }
      assert.include(yield* mcp.connectError(rest.key), "unauthorized")
      assert.include(yield* mcp.connectError(undefined), "Missing credentials")
    }).pipe(Effect.scoped)
  )

  it.effect("stops an OAuth access token at the end of its lifetime: 200 until then, 401 after", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { token, lifetime } = yield* mcp.oauthToken("expiring@example.com")
      const status = Effect.promise(() => mcp.fetch(endpoint, post({ authorization: `Bearer ${token}` }))).pipe(
        Effect.map((response) => response.status)
      )
      assert.strictEqual(yield* status, 200)
      yield* TestClock.adjust(Duration.subtract(lifetime, Duration.seconds(1)))
      assert.strictEqual(yield* status, 200)
      yield* TestClock.adjust(Duration.seconds(2))
      assert.strictEqual(yield* status, 401)
    }).pipe(Effect.scoped)
  )

  it.live("stops a revoked token at once, at the HTTP edge and inside an open session", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key, keyId } = yield* mcp.createKey("revoked@example.com", "pro")
      const client = yield* mcp.connect(key)
      assert.isTrue(yield* mcp.revoke(keyId))
      const response = yield* Effect.promise(() => mcp.fetch(endpoint, post({ authorization: `Bearer ${key}` })))
      assert.strictEqual(response.status, 401)
      const error = yield* Effect.promise(() => client.listTools().then(() => "listed", String))
      assert.include(error, "Invalid or revoked key")
    }).pipe(Effect.scoped)
  )

  it.live("reports out-of-contract arguments as an invalid_input result naming the field, never a protocol error", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("v@example.com", "business")
      const client = yield* mcp.connect(key)
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        ["search_tenders", { q: "x", limit: 0 }, /limit/u],
        ["search_tenders", { q: "x", minBudget: 10, maxBudget: 5 }, /minBudget/u],
        ["search_tenders", { q: "x", budgetCurrency: "XYZ" }, /budgetCurrency/u],
        ["search_tenders", { q: "x", deadlineAfter: "2026-02-30" }, /deadlineAfter/u],
        ["search_tenders", { q: "x", country: ["DE"] }, /unknown property "country".*countries/u],
        ["search_tenders", {}, /q is required/u],
        ["search_tenders", { q: 5 }, /q/u],
        ["get_tender", {}, /id is required/u],
        ["get_tender", { id: "../etc/passwd" }, /id/u],
        ["get_tender", { id: "nope-1" }, /^Invalid request: id/u],
        ["add_to_watchlist", { name: "All", filters: {} }, /match every tender/u],
        ["add_to_watchlist", { name: "", filters: { q: "road" } }, /name/u],
        [
          "add_to_watchlist",
          { name: "W", filters: { q: "road" }, channels: { webhook: "http://insecure.example.com" } },
          /webhook|https/iu
        ],
        ["get_deadline_alerts", { unexpected: true }, /unknown property "unexpected"/u]
      ]
      for (const [name, args, pattern] of cases) {
        const result = yield* mcp.call(client, name, args)
        const error = toolError(result)
        assert.strictEqual(error.code, "invalid_input", `${name} ${JSON.stringify(args)}: ${error.message}`)
        assert.match(error.message, pattern, `${name} ${JSON.stringify(args)}`)
        assert.deepStrictEqual(textJson(result), { error })
      }
    }).pipe(Effect.scoped)
  )

  it.live("counts q's 500 characters as the published JSON Schema does: 500 emoji pass, 501 are invalid_input", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("emoji@example.com", "pro")
      const client = yield* mcp.connect(key)
      const emoji = "\u{1F6A7}"
      const fits = yield* mcp.call(client, "search_tenders", { q: emoji.repeat(500) })
      assert.notStrictEqual(fits.isError, true, JSON.stringify(fits))
      const over = toolError(yield* mcp.call(client, "search_tenders", { q: emoji.repeat(501) }))
      assert.strictEqual(over.code, "invalid_input")
      assert.match(over.message, /^Invalid request: q: .*500 characters/u)
    }).pipe(Effect.scoped)
  )

  it.live("reports a server fault as an internal result naming a trace id and nothing else", () =>
    Effect.gen(function* () {
      const broken = Layer.succeed(
        SourceStatusStore,
        SourceStatusStore.of({ summaries: Effect.die(new Error("connection reset")) })
      )
      const mcp = yield* makeTestMcp({ overrides: broken })
      const { key } = yield* mcp.createKey("fault@example.com", "pro")
      const client = yield* mcp.connect(key)
      const error = toolError(yield* mcp.call(client, "search_tenders", { q: "road" }))
      assert.strictEqual(error.code, "internal")
      assert.match(error.message, /^Internal error; retry later \(trace [0-9a-f-]{16,}\)$/u)
    }).pipe(Effect.scoped)
  )

  it.live("answers not_found for an unknown tender id", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("nf@example.com", "pro")
      const client = yield* mcp.connect(key)
      const error = toolError(yield* mcp.call(client, "get_tender", { id: "ted-999999-2026" }))
      assert.strictEqual(error.code, "not_found")
      assert.include(error.message, "ted-999999-2026")
    }).pipe(Effect.scoped)
  )

  it.live(
    "applies the Free plan: structured filters and webhooks are plan_required, full cards lose the paid fields",
    () =>
      Effect.gen(function* () {
        const mcp = yield* makeTestMcp()
        yield* mcp.seed(records)
        const { key } = yield* mcp.createKey("free@example.com", "free")
        const client = yield* mcp.connect(key)
        const filtered = toolError(yield* mcp.call(client, "search_tenders", { q: "road", countries: ["DE"] }))
        assert.strictEqual(filtered.code, "plan_required")
        assert.include(filtered.message, "countries")
        const webhook = toolError(
          yield* mcp.call(client, "add_to_watchlist", {
            name: "W",
            filters: { q: "road" },
            channels: { webhook: "https://hooks.example.com/x" }
          })
        )
        assert.strictEqual(webhook.code, "plan_required")
        const plain = yield* mcp.call(client, "search_tenders", { q: "road" })
        assert.notStrictEqual(plain.isError, true)
        const full = (yield* mcp.call(client, "get_tender", { id: "ted-100001-2026" })).structuredContent as Record<
          string,
          unknown
        >
        for (const field of ["cpvCodes", "okpd2Codes", "lots", "docsUrl"]) assert.notProperty(full, field)
      }).pipe(Effect.scoped)
  )

  it.live("counts only tools/call against the quota and answers quota_exceeded once it is used up", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("quota@example.com", "pro", "mcp", 2)
      const client = yield* mcp.connect(key)
      for (let i = 0; i < 5; i++) yield* Effect.promise(() => client.listTools())
      assert.notStrictEqual((yield* mcp.call(client, "search_tenders", { q: "road" })).isError, true)
      assert.notStrictEqual((yield* mcp.call(client, "get_deadline_alerts", {})).isError, true)
      const error = toolError(yield* mcp.call(client, "search_tenders", { q: "road" }))
      assert.strictEqual(error.code, "quota_exceeded")
      assert.include(error.message, "pack")
      const listed = yield* Effect.promise(() => client.listTools())
      assert.strictEqual(listed.tools.length, 4)
    }).pipe(Effect.scoped)
  )

  it.live("refuses origins other than loopback and the configured ones with 403 forbidden (DNS rebinding)", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp({ allowedOrigins: ["https://agents.example.com", "studio.example.org"] })
      const { key } = yield* mcp.createKey("origin@example.com", "pro")
      const auth = { authorization: `Bearer ${key}` }
      for (const origin of [
        "https://evil.example.com",
        "http://127.0.0.1.evil.example",
        "null",
        "https://agents.example.com:8443",
        "file://"
      ]) {
        const response = yield* Effect.promise(() => mcp.fetch(endpoint, post({ ...auth, origin })))
        assert.strictEqual(response.status, 403, origin)
        const body = yield* refusedBody(response)
        assert.strictEqual(body.error.code, "forbidden")
        assert.include(body.error.message, `Origin ${origin} may not call /mcp`)
      }
      for (const origin of [
        "http://localhost:6274",
        "http://127.0.0.1",
        "http://[::1]:3000",
        "https://agents.example.com",
        "http://studio.example.org:5173"
      ]) {
        const response = yield* Effect.promise(() => mcp.fetch(endpoint, post({ ...auth, origin })))
        assert.strictEqual(response.status, 200, origin)
        assert.strictEqual(response.headers.get("access-control-allow-origin"), origin)
      }
      const preflight = yield* Effect.promise(() =>
        mcp.fetch(endpoint, { method: "OPTIONS", headers: { origin: "https://agents.example.com" } })
      )
      assert.strictEqual(preflight.status, 204)
      assert.include(preflight.headers.get("access-control-allow-headers") ?? "", "authorization")
      const refused = yield* Effect.promise(() =>
        mcp.fetch(endpoint, { method: "OPTIONS", headers: { origin: "https://evil.example.com" } })
      )
      assert.strictEqual(refused.status, 403)
      assert.strictEqual((yield* refusedBody(refused)).error.code, "forbidden")
    }).pipe(Effect.scoped)
  )

  it.live(
    "is stateless with JSON answers: no session id, GET (a session stream) is 405, 2025-era versions are served",
    () =>
      Effect.gen(function* () {
        const mcp = yield* makeTestMcp()
        const { key } = yield* mcp.createKey("stateless@example.com", "pro")
        const auth = { authorization: `Bearer ${key}` }
        const response = yield* Effect.promise(() => mcp.fetch(endpoint, post(auth)))
        assert.strictEqual(response.status, 200)
        assert.isNull(response.headers.get("mcp-session-id"))
        assert.include(response.headers.get("content-type") ?? "", "application/json")
        const get = yield* Effect.promise(() =>
          mcp.fetch(endpoint, { method: "GET", headers: { ...auth, accept: "text/event-stream" } })
        )
        assert.strictEqual(get.status, 405)
        for (const protocolVersion of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
          const older = yield* Effect.promise(() =>
            mcp.fetch(endpoint, post(auth, { ...initialize, params: { ...initialize.params, protocolVersion } }))
          )
          const body = (yield* Effect.promise(() => older.json())) as { result: { protocolVersion: string } }
          assert.strictEqual(body.result.protocolVersion, protocolVersion)
        }
      }).pipe(Effect.scoped)
  )
})
