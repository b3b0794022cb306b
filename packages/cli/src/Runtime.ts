import { AccountStore, Rates, RatesTable, SourceIntervals, webhookAllowHostsLayer } from "@tenders/core"
import { layerStore } from "@tenders/store-postgres"
import { Cause, Config, Effect, Exit, Layer, Option, Schema } from "effect"
import { readFileSync } from "node:fs"
import { sourceIntervals } from "./Feeds.ts"

/** Options every command shares (commander's globals). */
export interface GlobalOptions {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
}

/** The reference rates: an operator's table from TENDERS_RATES_FILE, else the bundled one. */
export const ratesLayer = Layer.unwrap(
  Effect.gen(function* () {
    const file = yield* Config.option(Config.String("TENDERS_RATES_FILE"))
    if (Option.isNone(file)) return Rates.bundled
    const text = yield* Effect.try({
      try: () => readFileSync(file.value, "utf8"),
      catch: (cause) =>
        new UsageError(
          `TENDERS_RATES_FILE: cannot read ${file.value}: ${cause instanceof Error ? cause.message : String(cause)}`
        )
    })
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new UsageError(`TENDERS_RATES_FILE: ${file.value} is not JSON`)
    })
    const table = yield* Schema.decodeUnknownEffect(RatesTable)(json).pipe(
      Effect.mapError(
        (error) => new UsageError(`TENDERS_RATES_FILE: ${file.value}: ${error.message.split("\n").join(" ")}`)
      )
    )
    return Layer.succeed(Rates, Rates.of({ table }))
  })
)

/** The ports a command needs, over the configured store; health uses the configured source intervals. */
export const appLayer = (options: GlobalOptions) =>
  Layer.mergeAll(
    layerStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir }),
    ratesLayer,
    Layer.effect(SourceIntervals, sourceIntervals),
    webhookAllowHostsLayer
  )

/** A failure the user caused: printed as one line, exit code 1. */
export class UsageError extends Error {}

/** Runs argument-parsing code that throws UsageError, as an Effect failing with it. */
export const usage = <A>(parse: () => A) =>
  Effect.try({ try: parse, catch: (e) => (e instanceof UsageError ? e : new UsageError(String(e))) })

/** The account with this e-mail, or a one-line usage error. */
export const accountOf = (email: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* AccountStore).findAccount(email)
    if (Option.isNone(found)) return yield* Effect.fail(new UsageError(`no account for ${email}`))
    return found.value
  })

/** Runs a command's effect over the store; prints a one-line message and sets a non-zero exit code on failure. */
export const runCommand = async <A, E>(
  options: GlobalOptions,
  effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof appLayer>>>
): Promise<void> => {
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(appLayer(options)), Effect.scoped))
  if (Exit.isFailure(exit)) {
    const error = Cause.squash(exit.cause)
    const message =
      error instanceof Error
        ? error.message
        : typeof error === "object" && error !== null && "message" in error
          ? String(error.message)
          : String(error)
    process.stderr.write(`tenders: ${message.split("\n")[0]}\n`)
    process.exitCode = 1
  }
}
