// `tenders mcp --stdio`, loaded only by that command (it brings the MCP stack).
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { serveMcpStdio } from "@tenders/mcp"
import { Cause, Effect, Exit, Logger, type Runtime } from "effect"
import { loggingLayer } from "./LogFormat.ts"
import { appLayer, type GlobalOptions, messageOf } from "./Runtime.ts"

/** A failure is one line on stderr (stdout is the protocol's); an interruption (stdin closed, SIGINT) is not one. */
const reportFailure = (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause)
    ? Effect.failCause(cause)
    : Effect.andThen(
        Effect.sync(() => process.stderr.write(`tenders: ${messageOf(Cause.squash(cause))}\n`)),
        Effect.failCause(cause)
      )

const exitCode: Runtime.Teardown = (exit, onExit) =>
  onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)

/** Serves the MCP tools on stdin/stdout as the account of `token` until stdin closes. */
export const runMcpStdio = (token: string, globals: GlobalOptions) => {
  const main = serveMcpStdio(token).pipe(
    Effect.provide(appLayer(globals)),
    Effect.catchCause(reportFailure),
    Effect.provide(loggingLayer),
    Effect.provideService(Logger.LogToStderr, true)
  )
  NodeRuntime.runMain(main, { disableErrorReporting: true, teardown: exitCode })
}
