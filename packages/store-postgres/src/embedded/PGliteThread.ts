/**
 * The thread an owner's PGlite runs on: ServePGlite.ts on a worker thread of its own, started and stopped by
 * `servePGliteOnThread` (ServeOnThread.ts). PGlite's PostgreSQL runs synchronously (WebAssembly): on the thread of
 * the process's own work (the text analysis of an ingest, the driver, the HTTP server) the two took turns.
 *
 * Protocol: the thread posts `Serving` once the socket listens and PGlite is open, or `Failed` (the message of
 * what went wrong) if it could not start or stopped serving; any message from the owner stops it (the server
 * drains, PGlite closes), and the thread ends.
 */
import { Cause, Deferred, Effect, Exit, Logger } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import { describeCause } from "./EmbeddedStoreError.ts"
import { servePGlite } from "./ServePGlite.ts"

/** What the owner starts the thread with. */
export interface ThreadData {
  readonly dataDir: string
  readonly socketPath: string
}

/** What the thread tells the owner. */
export type ThreadMessage = { readonly _tag: "Serving" } | { readonly _tag: "Failed"; readonly message: string }

const port = parentPort
if (port !== null) {
  const { dataDir, socketPath } = workerData as ThreadData
  const stop = Deferred.makeUnsafe<void>()
  port.on("message", () => Deferred.doneUnsafe(stop, Exit.void))
  const tell = (message: ThreadMessage) => port.postMessage(message)
  const serve = Effect.scoped(
    Effect.gen(function* () {
      yield* servePGlite(dataDir, socketPath)
      tell({ _tag: "Serving" })
      yield* Deferred.await(stop)
    })
  )
  // Its warnings go to standard error whatever the process does with standard output (`tenders mcp --stdio`
  // speaks MCP there).
  void Effect.runPromiseExit(Effect.provideService(serve, Logger.LogToStderr, true)).then((exit) => {
    if (Exit.isFailure(exit)) {
      const failure = Cause.findErrorOption(exit.cause)
      tell({
        _tag: "Failed",
        message: failure._tag === "Some" ? failure.value.message : describeCause(Cause.squash(exit.cause))
      })
    }
    port.close()
  })
}
