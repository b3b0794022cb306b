import { McpServer } from "@modelcontextprotocol/server"
import { TendersApi } from "@tenders/contract"
import type {
  AccountStore,
  AlertStore,
  OAuthStore,
  Rates,
  SearchText,
  SourceStatusStore,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import { Context, Effect, FiberSet } from "effect"
import { OpenApi } from "effect/http-api"
import type { Credential } from "./AuthInfo.ts"
import type { CallQuota } from "./CallQuota.ts"
import type { McpTool } from "./Tool.ts"
import { serverInstructions } from "./ToolDescriptions.ts"
import { advertise } from "./ToolSchema.ts"
import { tools } from "./Tools.ts"

/** The core ports the four tools need, provided by the composition root (the same ones REST uses). */
export type McpPorts =
  TenderStore | Rates | SourceStatusStore | WatchlistStore | AlertStore | AccountStore | OAuthStore | SearchText

/** Runs a tool call's effect from the SDK's Promise world. */
export type McpRunner = <A>(effect: Effect.Effect<A, never, McpPorts>) => Promise<A>

const version = Context.getOrUndefined(TendersApi.annotations, OpenApi.Version) ?? "1.2.0"

const register = (
  server: McpServer,
  tool: McpTool<McpPorts>,
  run: McpRunner,
  credential: Credential,
  callQuota: CallQuota | undefined
) =>
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: advertise(tool.inputSchema),
      outputSchema: advertise(tool.outputSchema),
      annotations: tool.annotations
    },
    (args) => run(tool.call(credential, args, callQuota))
  )

/**
 * A fresh MCP server with the four tools, acting for the caller of `credential` (each `tools/call`
 * authenticates it again and counts against its quota, which it tells `callQuota`).
 */
export const makeMcpServer = (run: McpRunner, credential: Credential, callQuota?: CallQuota): McpServer => {
  const server = new McpServer({ name: "tenders", title: "Tenders", version }, { instructions: serverInstructions })
  for (const tool of tools) register(server, tool, run, credential, callQuota)
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
