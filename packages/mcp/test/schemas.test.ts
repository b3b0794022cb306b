import { assert, describe, it } from "@effect/vitest"
import { TendersApi } from "@tenders/contract"
import { textPattern, textProblem } from "@tenders/core"
import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import * as fc from "fast-check"
import { makeTestMcp } from "./support.ts"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** `/v1/openapi.json` as the REST surface serves it (packages/http: `OpenApi.fromApi(TendersApi)`). */
const document: Json = JSON.parse(JSON.stringify(OpenApi.fromApi(TendersApi)))

const at = (value: Json | undefined, ...path: ReadonlyArray<string | number>): Json | undefined =>
  path.reduce<Json | undefined>((node, key) => {
    if (node === null || typeof node !== "object" || node === undefined) return undefined
    return Array.isArray(node) ? node[Number(key)] : (node as { readonly [key: string]: Json })[String(key)]
  }, value)

/** Resolves every `#/components/schemas/...` reference of the OpenAPI document, independently of the MCP code. */
const resolve = (node: Json | undefined): Json | undefined => {
  if (Array.isArray(node)) return node.map((item) => resolve(item) ?? null)
  if (node === null || typeof node !== "object") return node
  const entries = Object.entries(node as { readonly [key: string]: Json })
  const ref = entries.find(([key]) => key === "$ref")?.[1]
  const rest = Object.fromEntries(
    entries.filter(([key]) => key !== "$ref").map(([key, value]) => [key, resolve(value) ?? null])
  )
  if (typeof ref !== "string") return rest
  const target = resolve(at(document, ...ref.replace("#/", "").split("/")))
  return { ...(target !== null && typeof target === "object" && !Array.isArray(target) ? target : {}), ...rest }
}

const operation = (path: string, method: string) => at(document, "paths", path, method)
const requestBody = (path: string, method: string) =>
  resolve(at(operation(path, method), "requestBody", "content", "application/json", "schema"))
const response = (path: string, method: string, status: string) =>
  resolve(at(operation(path, method), "responses", status, "content", "application/json", "schema"))

describe("MCP tool schemas and /v1/openapi.json", () => {
  it.effect("advertise the same input and output JSON Schemas as the REST contract, so the surfaces cannot drift", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("schemas@example.com", "pro")
      const client = yield* mcp.connect(key)
      const { tools } = yield* Effect.promise(() => client.listTools())
      const tool = (name: string) => {
        const found = tools.find((t) => t.name === name)
        if (found === undefined) throw new Error(`no tool ${name}`)
        return {
          input: JSON.parse(JSON.stringify(found.inputSchema)),
          output: JSON.parse(JSON.stringify(found.outputSchema))
        }
      }

      const search = tool("search_tenders")
      assert.deepStrictEqual(search.input, requestBody("/v1/tenders/search", "post"))
      assert.deepStrictEqual(search.output, response("/v1/tenders/search", "post", "200"))
      assert.strictEqual(at(search.input, "additionalProperties"), false)
      assert.deepStrictEqual(at(search.input, "properties", "limit"), { type: "integer", minimum: 1, maximum: 20 })

      const watchlist = tool("add_to_watchlist")
      assert.deepStrictEqual(watchlist.input, requestBody("/v1/watchlists", "post"))
      assert.deepStrictEqual(watchlist.output, response("/v1/watchlists", "post", "201"))

      const get = tool("get_tender")
      const parameters = at(operation("/v1/tenders/{id}", "get"), "parameters")
      assert.deepStrictEqual(at(parameters, 0, "name"), "id")
      assert.deepStrictEqual(at(parameters, 0, "in"), "path")
      assert.deepStrictEqual(get.input, {
        type: "object",
        properties: { id: at(parameters, 0, "schema") },
        required: ["id"],
        additionalProperties: false
      })
      assert.deepStrictEqual(get.output, response("/v1/tenders/{id}", "get", "200"))

      const alerts = tool("get_deadline_alerts")
      assert.deepStrictEqual(at(operation("/v1/alerts", "get"), "parameters"), [])
      assert.isUndefined(at(operation("/v1/alerts", "get"), "requestBody"))
      assert.deepStrictEqual(alerts.input, { type: "object", additionalProperties: false })
      assert.deepStrictEqual(alerts.output, response("/v1/alerts", "get", "200"))
    }).pipe(Effect.scoped)
  )

  it("publish the text rule as a pattern on every text a caller sends, so a schema-valid body is never refused for it", () => {
    const search = requestBody("/v1/tenders/search", "post")
    const watchlist = requestBody("/v1/watchlists", "post")
    const patternsOf = (node: Json | undefined): ReadonlyArray<Json | undefined> => [
      at(node, "pattern"),
      ...(Array.isArray(at(node, "allOf"))
        ? (at(node, "allOf") as ReadonlyArray<Json>).map((n) => at(n, "pattern"))
        : [])
    ]
    for (const field of [
      at(search, "properties", "q"),
      at(watchlist, "properties", "name"),
      at(watchlist, "properties", "filters", "properties", "q"),
      at(watchlist, "properties", "channels", "properties", "webhook")
    ]) {
      assert.include(patternsOf(field), textPattern, JSON.stringify(field))
    }
    // The pattern says what the rule says, read as JSON Schema validators read it (with or without the u flag).
    const unicode = new RegExp(textPattern, "u")
    const plain = new RegExp(textPattern)
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string()), (text) => {
        const allowed = textProblem(text) === undefined
        assert.strictEqual(unicode.test(text), allowed, JSON.stringify(text))
        assert.strictEqual(plain.test(text), allowed, JSON.stringify(text))
      }),
      { numRuns: 2000 }
    )
  })
})
