import { gnumnerHttpClientLayer, makeEisFeed, makeGnumnerFeed, makeTedFeed } from "@tenders/adapters-sources"
import { type SourceCode, sourceCodes, type SourceFeed } from "@tenders/core"
import { Config, Duration, Effect, Option } from "effect"
import { FetchHttpClient } from "effect/http"

const env = (source: SourceCode, setting: string) => `TENDERS_${source.toUpperCase()}_${setting}`

const optionalString = (name: string) => Config.option(Config.String(name)).pipe(Effect.map(Option.getOrUndefined))
const optionalNumber = (name: string) => Config.option(Config.Number(name)).pipe(Effect.map(Option.getOrUndefined))

const defaults: Record<SourceCode, Duration.Duration> = {
  ted: Duration.hours(1),
  gnumner: Duration.hours(2),
  eaeu: Duration.hours(1)
}

/** How often each source runs: TENDERS_<SOURCE>_INTERVAL ("30 minutes", "2 hours"), else the default. */
export const sourceIntervals = Effect.gen(function* () {
  const out: Record<SourceCode, Duration.Duration> = { ...defaults }
  for (const source of sourceCodes) {
    const configured = yield* Config.option(Config.Duration(env(source, "INTERVAL")))
    if (Option.isSome(configured)) out[source] = configured.value
  }
  return out
})

const base = (source: SourceCode) =>
  Effect.all({
    baseUrl: optionalString(env(source, "BASE_URL")),
    minIntervalMs: optionalNumber(env(source, "REQUEST_INTERVAL_MS")),
    maxAttempts: optionalNumber(env(source, "MAX_ATTEMPTS"))
  })

/** The settings every feed shares, only where given, so the feed's defaults apply to the rest. */
const common = (b: Effect.Success<ReturnType<typeof base>>) => ({
  ...given("minIntervalMs", b.minIntervalMs),
  ...given("maxAttempts", b.maxAttempts)
})

/** Only the settings that were given, so the feed's defaults apply to the rest. */
const given = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]?: V })

/** The live feed of a source, configured from TENDERS_<SOURCE>_* (README, "Configuration"). */
export const feedFor = (source: SourceCode): Effect.Effect<SourceFeed, Config.ConfigError> => {
  switch (source) {
    case "ted":
      return Effect.flatMap(base("ted"), (b) => makeTedFeed({ ...given("baseUrl", b.baseUrl), ...common(b) })).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    case "eaeu":
      return Effect.gen(function* () {
        const b = yield* base("eaeu")
        const token = yield* optionalString(env("eaeu", "TOKEN"))
        const rssUrl = yield* optionalString(env("eaeu", "RSS_URL"))
        const soapUrl = yield* optionalString(env("eaeu", "SOAP_URL"))
        return yield* makeEisFeed({
          token: token ?? null,
          ...given("rssUrl", rssUrl),
          ...given("soapUrl", soapUrl ?? b.baseUrl),
          ...common(b)
        })
      }).pipe(Effect.provide(FetchHttpClient.layer))
    case "gnumner":
      return Effect.gen(function* () {
        const b = yield* base("gnumner")
        const listed = yield* optionalString(env("gnumner", "INSECURE_TLS_HOSTS"))
        const hosts = (listed ?? "")
          .split(",")
          .map((h) => h.trim())
          .filter((h) => h.length > 0)
        return yield* makeGnumnerFeed({
          ...given("baseUrl", b.baseUrl),
          ...common(b),
          insecureTlsHosts: hosts
        }).pipe(Effect.provide(gnumnerHttpClientLayer(hosts)))
      })
  }
}
