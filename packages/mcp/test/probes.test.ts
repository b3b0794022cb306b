import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestMcp, toolError } from "./support.ts"

// Issue 9's probe inputs through the MCP tools: the same 4xx as REST, as `isError` results with invalid_input.
describe("issue 9's probe inputs on /mcp", () => {
  it.effect("answers out-of-range deadlineAfter, NUL, lone surrogates and private webhooks with invalid_input", () =>
    Effect.gen(function* () {
      const mcp = yield* makeTestMcp()
      const { key } = yield* mcp.createKey("probes@example.com", "pro")
      const client = yield* mcp.connect(key)
      const refused = [
        ["search_tenders", { q: "road", deadlineAfter: "0000-01-01" }],
        ["search_tenders", { q: "road", deadlineAfter: "9999-12-31T23:00-05:00" }],
        ["search_tenders", { q: "road\ud800" }],
        ["add_to_watchlist", { name: "w", filters: { q: "road", deadlineAfter: "0001-01-01T00:00+01:00" } }],
        ["add_to_watchlist", { name: "road\u0000works", filters: { q: "road" } }],
        [
          "add_to_watchlist",
          { name: "w", filters: { q: "road" }, channels: { webhook: "https://[64:ff9b::7f00:1]/" } }
        ],
        ["get_tender", { id: "ted-1\u00002026" }]
      ] as const
      for (const [tool, args] of refused) {
        const result = yield* mcp.call(client, tool, args)
        assert.strictEqual(toolError(result).code, "invalid_input", `${tool} ${JSON.stringify(args)}`)
      }
    }).pipe(Effect.scoped)
  )
})
