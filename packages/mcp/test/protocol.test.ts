import { assert, describe, it } from "@effect/vitest"
import { AccountStore } from "@tenders/core"
import { AccountStoreMemory } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { makeTestMcp, type RawAnswer } from "./support.ts"

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}

const toolsCall = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args }
})

interface JsonRpcError {
  readonly jsonrpc: string
  readonly id: unknown
  readonly error: { readonly code: number; readonly message: string }
}

/** The single JSON-RPC error object of an answer; fails when the body is anything else. */
const rpcError = (answer: RawAnswer): JsonRpcError => {
  const body = answer.json as Partial<JsonRpcError> | null
  assert.isObject(body, JSON.stringify(answer.json))
  assert.deepStrictEqual(Object.keys(body ?? {}).toSorted(), ["error", "id", "jsonrpc"], JSON.stringify(body))
  assert.strictEqual(body?.jsonrpc, "2.0")
  assert.isNumber(body?.error?.code)
  assert.isString(body?.error?.message)
  return body as JsonRpcError
}

/** The account store of a database that went away: every token check dies. */
const BrokenAuthentication = Layer.effect(
  AccountStore,
  Effect.gen(function* () {
    const store = yield* AccountStore
    return AccountStore.of({ ...store, authenticate: () => Effect.die(new Error("connection reset")) })
  })
).pipe(Layer.provide(AccountStoreMemory))

/** The names of `Object.prototype`'s properties a plain-object lookup finds on any object. */
const prototypeNames = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"]

const rateLimit = (answer: RawAnswer) => [answer.headers.get("ratelimit-policy"), answer.headers.get("ratelimit")]

describe("MCP endpoint, in JSON-RPC's words (served next to the REST routes)", () => {
  it.effect(
    "answers a body that is not JSON by type, too large, or not JSON at all with a JSON-RPC error, id null",
    () =>
      Effect.gen(function* () {
        const mcp = yield* makeTestMcp()
        const { key } = yield* mcp.createKey("bodies@example.com", "pro")
        const cases: ReadonlyArray<[RawAnswer, number, number, RegExp]> = [
          [
            yield* mcp.post(key, JSON.stringify(initialize), "text/plain"),
            415,
            -32600,
            /Content-Type: application\/json/u
          ],
          [yield* mcp.post(key, { ...initialize, pad: "x".repeat(70_000) }), 413, -32600, /larger than 64 KiB/u],
          [yield* mcp.post(key, '{"jsonrpc":'), 400, -32700, /^Parse error/u],
          [yield* mcp.post(key, "\u0000"), 400, -32700, /^Parse error/u]
        ]
        for (const [answer, status, code, message] of cases) {
          const error = rpcError(answer)
          assert.deepStrictEqual([answer.status, error.error.code, error.id], [status, code, null], error.error.message)
          assert.match(error.error.message, message)
        }
      }).pipe(Effect.scoped)
  )

  it.effect("answers a batch with one Invalid Request per request in it, and an empty batch with one error", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("batch@example.com", "pro")
      const batch = yield* mcp.post(key, [
        initialize,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        toolsCall(2, "search_tenders", { q: "road" }),
        42
      ])
      assert.strictEqual(batch.status, 400)
      assert.isArray(batch.json)
      const answers = batch.json as ReadonlyArray<JsonRpcError>
      assert.deepStrictEqual(
        answers.map((answer) => [answer.id, answer.error.code]),
        [
          [1, -32600],
          [2, -32600],
          [null, -32600]
        ]
      )
      assert.match(answers[0]?.error.message ?? "", /batches are not supported/u)
      const empty = yield* mcp.post(key, [])
      assert.deepStrictEqual([empty.status, rpcError(empty).error.code, rpcError(empty).id], [400, -32600, null])
    }).pipe(Effect.scoped)
  )

  it.effect("answers a request whose params do not fit its method with -32602, its id and a readable reason", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("params@example.com", "pro")
      const cases: ReadonlyArray<[unknown, RegExp]> = [
        [{ jsonrpc: "2.0", id: 7, method: "initialize" }, /^Invalid params for initialize: params: .*object/u],
        [{ ...initialize, id: 7, params: { protocolVersion: 2025 } }, /params\.protocolVersion: .*string/u],
        [{ jsonrpc: "2.0", id: 7, method: "tools/call", params: 5 }, /^Invalid params for tools\/call: params/u],
        [{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { arguments: {} } }, /params\.name: .*string/u],
        [{ jsonrpc: "2.0", id: 7, method: "tools/list", params: { cursor: 5 } }, /params\.cursor: .*string/u]
      ]
      for (const [message, reason] of cases) {
        const answer = yield* mcp.post(key, message)
        const error = rpcError(answer)
        assert.deepStrictEqual([error.error.code, error.id], [-32602, 7], JSON.stringify(message))
        assert.match(error.error.message, reason)
        assert.notInclude(error.error.message, "\n")
        assert.notInclude(error.error.message, '"code"')
      }
    }).pipe(Effect.scoped)
  )

  it.effect("answers a method named after an Object.prototype property as the SDK answers any unknown method", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("prototype@example.com", "pro")
      const answers = (method: string) =>
        Effect.all(
          [
            mcp.post(key, { jsonrpc: "2.0", id: 7, method }),
            mcp.post(key, { jsonrpc: "2.0", id: 7, method, params: {} }),
            mcp.post(key, { jsonrpc: "2.0", method }),
            mcp.postModern(key, { id: 7, method }),
            mcp.postModern(key, { method })
          ],
          { concurrency: 1 }
        ).pipe(Effect.map((all) => all.map((answer) => [answer.status, answer.json])))
      const notFound = { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } }
      const unknown = yield* answers("tenders/unknown")
      assert.deepStrictEqual(unknown, [
        [200, notFound],
        [200, notFound],
        [202, null],
        [404, notFound],
        [202, null]
      ])
      for (const method of prototypeNames) assert.deepStrictEqual(yield* answers(method), unknown, method)
    }).pipe(Effect.scoped)
  )

  it.effect("answers a tools/call of a tool named after an Object.prototype property as one of any unknown tool", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("prototype-tool@example.com", "pro", "mcp", 1)
      for (const name of ["tenders_unknown", ...prototypeNames]) {
        const expected = [200, { jsonrpc: "2.0", id: 7, error: { code: -32602, message: `Tool ${name} not found` } }]
        const legacy = yield* mcp.post(key, toolsCall(7, name, {}))
        assert.deepStrictEqual([legacy.status, legacy.json], expected, name)
        const modern = yield* mcp.postModern(key, { id: 7, method: "tools/call", params: { name, arguments: {} } })
        assert.deepStrictEqual([modern.status, modern.json], expected, name)
      }
      // None of them counted: the one call of the month is still there.
      const served = yield* mcp.post(key, toolsCall(8, "get_deadline_alerts", {}))
      const { result } = served.json as { result: { isError?: boolean; structuredContent: { alerts?: unknown } } }
      assert.notStrictEqual(result.isError, true, JSON.stringify(served.json))
      assert.deepStrictEqual(result.structuredContent.alerts, [])
    }).pipe(Effect.scoped)
  )

  it.effect("keeps a missing or bad token an HTTP 401 with the contract's error body, whatever the body", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      for (const [key, body, type] of [
        [undefined, "not json", "text/plain"],
        ["sk_live_" + "A".repeat(32), [initialize], "application/json"],
        [`mcp_live_${"A".repeat(32)}`, "x".repeat(70_000), "application/json"]
      ] as const) {
        const answer = yield* mcp.post(key, body, type)
        assert.strictEqual(answer.status, 401)
        assert.deepStrictEqual(Object.keys(answer.json as object), ["error"])
        assert.strictEqual((answer.json as { error: { code: string } }).error.code, "unauthorized")
      }
    }).pipe(Effect.scoped)
  )

  it.effect("puts the RateLimit fields on the HTTP response of a counted tools/call, refused ones included", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("ratelimit@example.com", "pro", "mcp", 2)
      const started = yield* mcp.post(key, initialize)
      assert.deepStrictEqual(rateLimit(started), [null, null])
      const listed = yield* mcp.post(key, { jsonrpc: "2.0", id: 2, method: "tools/list" })
      assert.deepStrictEqual(rateLimit(listed), [null, null])
      const remaining = []
      for (let id = 3; id <= 5; id++) {
        const answer = yield* mcp.post(key, toolsCall(id, "search_tenders", { q: "road" }))
        assert.strictEqual(answer.status, 200)
        const [policy, fields] = rateLimit(answer)
        assert.strictEqual(policy, `"monthly";q=2`)
        remaining.push(/^"monthly";r=(\d+);t=\d+$/u.exec(fields ?? "")?.[1])
      }
      assert.deepStrictEqual(remaining, ["1", "0", "0"])
    }).pipe(Effect.scoped)
  )

  it.effect(
    "answers a server fault outside a tool call with HTTP 500 and -32603 naming a trace id and nothing else",
    () =>
      Effect.gen(function* () {
        const mcp = yield* makeTestMcp({ overrides: BrokenAuthentication })
        const answer = yield* mcp.post(`mcp_live_${"A".repeat(32)}`, initialize)
        const error = rpcError(answer)
        assert.deepStrictEqual([answer.status, error.error.code, error.id], [500, -32603, null])
        assert.match(error.error.message, /^Internal error; retry later \(trace [0-9a-f-]{16,}\)$/u)
      }).pipe(Effect.scoped)
  )
})
