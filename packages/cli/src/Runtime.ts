import { Rates } from "@tenders/core"
import { layerStore } from "@tenders/store-postgres"
import { Cause, Effect, Exit, Layer } from "effect"

/** Options every command shares (commander's globals). */
export interface GlobalOptions {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
}

/** The ports a command needs, over the configured store. */
export const appLayer = (options: GlobalOptions) =>
  Layer.mergeAll(layerStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir }), Rates.bundled)

/** A failure the user caused: printed as one line, exit code 1. */
export class UsageError extends Error {}

/** Runs a command's effect over the store; prints a one-line message and sets a non-zero exit code on failure. */
export const runCommand = async <A, E>(
  options: GlobalOptions,
  effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof appLayer>>>
): Promise<void> => {
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(appLayer(options)), Effect.scoped))
  if (Exit.isFailure(exit)) {
    const error = Cause.squash(exit.cause)
    const message = error instanceof Error ? error.message : typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)
    process.stderr.write(`tenders: ${message.split("\n")[0]}\n`)
    process.exitCode = 1
  }
}
