import { SearchTextLive } from "@tenders/search-text"
import { Rates, RatesTable, ratesInUseOf, SourceIntervals, webhookAllowHostsLayer } from "@tenders/core"
import { layerStore } from "@tenders/store-postgres"
import { Cause, Config, Effect, Exit, Layer, Option, Predicate, Schema } from "effect"
import { readFileSync } from "node:fs"
import { sourceIntervals } from "./Feeds.ts"

/** Options every command shares (commander's globals). */
export interface GlobalOptions {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
}

/**
 * The table used while no rates were imported from the publishers: an operator's table from TENDERS_RATES_FILE,
 * else the bundled one (docs/reference-rates.md).
 */
export const fallbackRates = Effect.gen(function* () {
  const file = yield* Config.option(Config.String("TENDERS_RATES_FILE"))
  if (Option.isNone(file)) return yield* Rates.bundledRates
  const text = yield* Effect.try({
    try: () => readFileSync(file.value, "utf8"),
    catch: (cause) => new UsageError(`TENDERS_RATES_FILE: cannot read ${file.value}: ${messageOf(cause)}`)
  })
  const json = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.Unknown))(text).pipe(
    Effect.mapError(() => new UsageError(`TENDERS_RATES_FILE: ${file.value} is not JSON`))
  )
  const table = yield* Schema.decodeUnknownEffect(RatesTable)(json).pipe(
    Effect.mapError((error) => new UsageError(`TENDERS_RATES_FILE: ${file.value}: ${messageOf(error)}`))
  )
  return ratesInUseOf(table, `the table in ${file.value}`)
})

/** The reference rates: the newest quarter imported into the store, else the fallback table. */
export const ratesLayer = Layer.unwrap(
  Effect.map(fallbackRates, (fallback) => Rates.fromStore(Effect.succeed(fallback)))
)

/**
 * The ports a command needs, over the configured store; health uses the configured source intervals. `serving`: the
 * store of `serve` (StoreOptions).
 */
export const appLayer = (options: GlobalOptions, store: { readonly serving?: boolean } = {}) =>
  Layer.mergeAll(ratesLayer, Layer.effect(SourceIntervals, sourceIntervals), webhookAllowHostsLayer).pipe(
    Layer.provideMerge(
      layerStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, serving: store.serving }).pipe(
        Layer.provideMerge(SearchTextLive)
      )
    )
  )

/** A failure the user caused: printed as one line, exit code 1. */
export class UsageError extends Error {}

/** The one-line message of any failure: an Error's, a tagged error's `message`, or its text. */
export const messageOf = (error: unknown): string =>
  (Predicate.hasProperty(error, "message") ? String(error.message) : String(error)).split("\n").join(" ")

/** Runs argument-parsing code that throws UsageError, as an Effect failing with it. */
export const usage = <A>(parse: () => A) =>
  Effect.try({ try: parse, catch: (e) => (e instanceof UsageError ? e : new UsageError(String(e))) })

/** Runs a command's effect over the store; prints a one-line message and sets a non-zero exit code on failure. */
export const runCommand = async <A, E>(
  options: GlobalOptions,
  effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof appLayer>>>
): Promise<void> => {
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(appLayer(options)), Effect.scoped))
  if (Exit.isFailure(exit)) {
    process.stderr.write(`tenders: ${messageOf(Cause.squash(exit.cause))}\n`)
    process.exitCode = 1
  }
}
