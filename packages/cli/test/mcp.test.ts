import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { describe, expect, it } from "vitest"
import { childEnv, e2eBackends, suiteServer, tendersAsync, tendersBin } from "./cli.ts"

type ToolResult = Awaited<ReturnType<Client["callTool"]>>

const errorCode = (result: ToolResult) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code

const toolNames = ["search_tenders", "get_tender", "add_to_watchlist", "get_deadline_alerts"]

for (const name of e2eBackends) {
  describe(`MCP end to end on the ${name}`, () => {
    let token = ""
    let restKey = ""
    const suite = suiteServer(name, "tdm-", async () => {
      token = await createKey(`mcp-${Date.now()}@example.com`, "mcp")
      restKey = await createKey(`rest-${Date.now()}@example.com`, "rest")
      expect(token).toMatch(/^mcp_live_[0-9A-Za-z]{32}$/u)
    })

    const createKey = async (email: string, kind: "rest" | "mcp") => {
      const created = await tendersAsync(
        ["keys", "create", "--email", email, "--plan", "pro", "--kind", kind, "--json"],
        suite.env()
      )
      expect(created.status, created.stderr).toBe(0)
      return (JSON.parse(created.stdout) as { key: string }).key
    }

    const connect = async (key: string | undefined) => {
      const client = new Client({ name: "tenders-e2e", version: "1.0.0" })
      const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` }
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${suite.base()}/mcp`), { requestInit: { headers } })
      )
      return client
    }

    it("lists the four tools over Streamable HTTP at /mcp and calls each with an MCP token", async () => {
      const client = await connect(token)
      try {
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name)).toEqual(toolNames)

        const search = await client.callTool({ name: "search_tenders", arguments: { q: "road", limit: 3 } })
        expect(search.isError, JSON.stringify(search)).not.toBe(true)
        const results = (search.structuredContent as { results: Array<{ id: string }> }).results
        expect(results.length).toBeGreaterThan(0)

        const tender = await client.callTool({ name: "get_tender", arguments: { id: results[0]?.id } })
        expect(tender.isError, JSON.stringify(tender)).not.toBe(true)
        expect((tender.structuredContent as { id: string; status: string }).id).toBe(results[0]?.id)

        const watchlist = await client.callTool({
          name: "add_to_watchlist",
          arguments: { name: "Roads", filters: { q: "road" }, channels: { email: false } }
        })
        expect(watchlist.isError, JSON.stringify(watchlist)).not.toBe(true)
        expect((watchlist.structuredContent as { estimatedMatches: number }).estimatedMatches).toBeGreaterThan(0)

        const alerts = await client.callTool({ name: "get_deadline_alerts", arguments: {} })
        expect(alerts.isError, JSON.stringify(alerts)).not.toBe(true)
        expect(Array.isArray((alerts.structuredContent as { alerts: unknown }).alerts)).toBe(true)
      } finally {
        await client.close()
      }
    })

    it("answers 401 unauthorized for a REST key or no token, and invalid_input for bad arguments", async () => {
      for (const key of [restKey, undefined]) {
        const response = await fetch(`${suite.base()}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(key === undefined ? {} : { authorization: `Bearer ${key}` })
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
        })
        expect(response.status).toBe(401)
        expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } })
        await expect(connect(key)).rejects.toThrow(/unauthorized/u)
      }
      const client = await connect(token)
      try {
        const bad = await client.callTool({ name: "search_tenders", arguments: { q: "road", limit: 99 } })
        expect(bad.isError).toBe(true)
        expect(errorCode(bad)).toBe("invalid_input")
        const missing = await client.callTool({ name: "get_tender", arguments: { id: "ted-0-0000" } })
        expect(errorCode(missing)).toBe("not_found")
      } finally {
        await client.close()
      }
      const rest = await fetch(`${suite.base()}/v1/tenders/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ q: "road" })
      })
      expect(rest.status).toBe(401)
    })

    it("refuses a foreign browser Origin with 403 forbidden", async () => {
      const response = await fetch(`${suite.base()}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          origin: "https://evil.example.com",
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
      })
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ error: { code: "forbidden" } })
    })

    it("serves the same tools over stdio with `tenders mcp --stdio` and a token from TENDERS_MCP_TOKEN", async () => {
      const stdioEnv = Object.fromEntries(
        Object.entries(childEnv({ ...suite.env(), TENDERS_MCP_TOKEN: token })).flatMap(([k, v]) =>
          v === undefined ? [] : [[k, v]]
        )
      )
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [tendersBin, "mcp", "--stdio"],
        env: stdioEnv,
        stderr: "pipe"
      })
      let stderr = ""
      transport.stderr?.on("data", (chunk) => (stderr += String(chunk)))
      const client = new Client({ name: "tenders-e2e-stdio", version: "1.0.0" })
      await client.connect(transport)
      try {
        const { tools } = await client.listTools()
        expect(
          tools.map((t) => t.name),
          stderr
        ).toEqual(toolNames)
        const search = await client.callTool({ name: "search_tenders", arguments: { q: "дорога" } })
        expect(search.isError, JSON.stringify(search)).not.toBe(true)
        expect((search.structuredContent as { results: Array<unknown> }).results.length).toBeGreaterThan(0)
      } finally {
        await client.close()
      }
    })

    it("refuses `tenders mcp --stdio` with a REST key: one line on stderr, nothing on stdout", async () => {
      const result = await tendersAsync(["mcp", "--stdio", "--token", restKey], suite.env())
      expect(result.status).toBe(1)
      expect(result.stdout).toBe("")
      expect(result.stderr).toMatch(/^tenders: Wrong credential format: this endpoint takes an MCP token/u)
    })
  })
}
