import { McpServer } from "@modelcontextprotocol/server"
import { TendersApi } from "@tenders/contract"
import type { AccountStore, AlertStore, Rates, SourceStatusStore, TenderStore, WatchlistStore } from "@tenders/core"
import { Context, Effect, FiberSet } from "effect"
import { OpenApi } from "effect/http-api"
import type { McpTool } from "./Tool.ts"
import { advertise } from "./ToolSchema.ts"
import { tools } from "./Tools.ts"

/** The core ports the four tools need, provided by the composition root (the same ones REST uses). */
export type McpPorts = TenderStore | Rates | SourceStatusStore | WatchlistStore | AlertStore | AccountStore

/** Runs a tool call's effect from the SDK's Promise world. */
export type McpRunner = <A>(effect: Effect.Effect<A, never, McpPorts>) => Promise<A>

const version = Context.getOrUndefined(TendersApi.annotations, OpenApi.Version) ?? "1.2.0"

const instructions = [
  "Tenders: search open public procurement tenders from TED (EU), gnumner/ARMEPS (Armenia) and zakupki.gov.ru (Russia/EAEU),",
  "read one in full, save filters as watchlists and list the alerts they raise.",
  "Every tools/call counts against the account's monthly quota; listing tools does not.",
  "A failed call is a tool result with isError and structuredContent { error: { code, message } }, code one of",
  "invalid_input (fix the arguments as the message says), plan_required (needs the Pro or Business plan),",
  "limit_reached (watchlist limit of the plan), not_found, quota_exceeded (monthly calls used up: buy a $5 pack on a paid plan or upgrade),",
  "unauthorized (token revoked) and internal (retry later)."
].join(" ")

const register = (server: McpServer, tool: McpTool<McpPorts>, run: McpRunner, secret: string | undefined) =>
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: advertise(tool.inputSchema),
      outputSchema: advertise(tool.outputSchema),
      annotations: tool.annotations
    },
    (args) => run(tool.call(secret, args))
  )

/**
 * A fresh MCP server with the four tools, acting for the caller whose bearer secret is `secret`
 * (each `tools/call` authenticates it again and counts against its quota).
 */
export const makeMcpServer = (run: McpRunner, secret: string | undefined): McpServer => {
  const server = new McpServer({ name: "tenders", title: "Tenders", version }, { instructions })
  for (const tool of tools) register(server, tool, run, secret)
  return server
}

/**
 * A runner for tool calls whose fibers belong to the current scope (interrupted when the endpoint or the
 * stdio session closes), and a reporter that logs the SDK's out-of-band errors with `log`.
 */
export const makeRunner = Effect.gen(function* () {
  const run: McpRunner = yield* FiberSet.makeRuntimePromise<McpPorts>()
  const context = yield* Effect.context<never>()
  const report = (log: typeof Effect.logWarning, message: string) => (error: Error) => {
    Effect.runForkWith(context)(log(message, error.message))
  }
  return { run, report }
})
