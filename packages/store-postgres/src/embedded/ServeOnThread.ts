/**
 * An owner serves its PGlite from a worker thread (PGliteThread.ts): the socket server and PostgreSQL's
 * WebAssembly run beside the process's own work instead of taking turns with it (an embedded ingest spent 4.6 s in
 * PostgreSQL and 3.5 s in JavaScript on one thread for 30,000 tenders).
 *
 * The thread is started when the claim makes this process the owner, and stopped with the scope: it drains its
 * connections and closes PGlite, as in-process serving did. A thread that ends on its own while serving leaves an
 * owner that serves nothing while holding the lock: the process exits, as it would have crashed with PGlite
 * in-process, and the lock goes to the next claimant (LockFile.ts: a dead owner's lock is stale).
 */
import { Effect } from "effect"
import { Worker } from "node:worker_threads"
import { EmbeddedStoreError } from "./EmbeddedStoreError.ts"
import type { ThreadData, ThreadMessage } from "./PGliteThread.ts"

/**
 * The thread's entry, as this module is run: the sources (the repository's scripts and tests) or the build. It
 * imports only modules of this folder and packages, so it needs none of the launcher's resolution hooks.
 */
const threadUrl = new URL(import.meta.url.endsWith(".ts") ? "./PGliteThread.ts" : "./PGliteThread.js", import.meta.url)

/** Serves `<dataDir>/pglite` on `socketPath` from a worker thread until the scope closes. */
export const servePGliteOnThread = (dataDir: string, socketPath: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<{ readonly stop: () => Promise<void> }>((resolve, reject) => {
          const data: ThreadData = { dataDir, socketPath }
          const worker = new Worker(threadUrl, { workerData: data })
          let serving = false
          let stopping = false
          const exited = new Promise<number>((done) => worker.once("exit", done))
          worker.on("message", (message: ThreadMessage) => {
            if (message._tag === "Serving") {
              serving = true
              resolve({
                stop: () => {
                  stopping = true
                  worker.postMessage("stop", []) // no transfer list (Node's second argument, not an origin)
                  return exited.then(() => undefined)
                }
              })
            } else if (!serving) reject(new EmbeddedStoreError({ message: message.message }))
            else if (!stopping)
              process.stderr.write(`tenders: the embedded store stopped serving: ${message.message}\n`)
          })
          worker.once("error", (error) => {
            if (!serving) reject(new EmbeddedStoreError({ message: `The PGlite thread failed: ${error.message}` }))
          })
          void exited.then((code) => {
            if (!serving) reject(new EmbeddedStoreError({ message: `The PGlite thread exited (code ${code})` }))
            else if (!stopping) {
              process.stderr.write(`tenders: the thread serving the embedded store ended (code ${code}); exiting\n`)
              process.exit(70)
            }
          })
        }),
      catch: (cause) =>
        cause instanceof EmbeddedStoreError
          ? cause
          : new EmbeddedStoreError({ message: `Cannot start the PGlite thread: ${String(cause)}` })
    }),
    ({ stop }) => Effect.promise(stop)
  )
