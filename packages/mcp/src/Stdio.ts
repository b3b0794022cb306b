import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio"
import { authenticateCaller } from "@tenders/core"
import { Effect } from "effect"
import { makeMcpServer, makeRunner } from "./Server.ts"

/** Completes when the client closes our stdin, which ends the session (the MCP stdio binding). */
const stdinClosed = Effect.callback<void>((resume) => {
  const done = () => resume(Effect.void)
  if (process.stdin.readableEnded || process.stdin.destroyed) return done()
  process.stdin.once("end", done)
  process.stdin.once("close", done)
  return Effect.sync(() => {
    process.stdin.off("end", done)
    process.stdin.off("close", done)
  })
})

/**
 * Serves the four tools over stdin/stdout for a local agent until stdin closes. The token must be a valid
 * MCP token (fails with `Unauthorized` at once otherwise); each `tools/call` authenticates it again and
 * counts against its quota. stdout carries only the protocol: log to stderr (`Logger.LogToStderr`).
 */
export const serveMcpStdio = Effect.fn("serveMcpStdio")(function* (token: string | undefined) {
  yield* authenticateCaller(token, "mcp")
  const { run, report } = yield* makeRunner
  yield* Effect.acquireUseRelease(
    Effect.sync(() => {
      const transport = new StdioServerTransport(process.stdin, process.stdout)
      return {
        handle: serveStdio(() => makeMcpServer(run, { secret: token, resource: undefined }), {
          transport,
          onerror: report(Effect.logWarning, "MCP stdio error")
        })
      }
    }),
    () => stdinClosed,
    ({ handle }) => Effect.promise(() => handle.close())
  )
}, Effect.scoped)
