import { gnumnerHttpClientLayer, makeEisFeed, makeGnumnerFeed, makeTedFeed } from "@tenders/adapters-sources"
import {
  commaList,
  optionalSetting,
  type SourceCode,
  type SourceFeed,
  sourceIntervalsConfig,
  sourceSetting
} from "@tenders/core"
import { Config, type Duration, Effect } from "effect"
import { FetchHttpClient } from "effect/http"

/** How often each source runs: TENDERS_<SOURCE>_INTERVAL ("30 minutes", "2 hours"), else core's default. */
export const sourceIntervals: Effect.Effect<
  Record<SourceCode, Duration.Duration>,
  Config.ConfigError
> = sourceIntervalsConfig

const optionalNumber = (name: string): Config.Config<number | undefined> =>
  Config.Number(name).pipe(Config.withDefault(undefined))

/** Only the settings that were given, so the feed's defaults apply to the rest. */
const given = <T extends object>(settings: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }

/** The settings every feed shares: TENDERS_<SOURCE>_BASE_URL, _REQUEST_INTERVAL_MS, _MAX_ATTEMPTS. */
const common = (source: SourceCode) =>
  Config.all({
    baseUrl: optionalSetting(sourceSetting(source, "BASE_URL")),
    minIntervalMs: optionalNumber(sourceSetting(source, "REQUEST_INTERVAL_MS")),
    maxAttempts: optionalNumber(sourceSetting(source, "MAX_ATTEMPTS"))
  })

/** The live feed of a source, configured from TENDERS_<SOURCE>_* (README, "Configuration"). */
export const feedFor = (source: SourceCode): Effect.Effect<SourceFeed, Config.ConfigError> => {
  switch (source) {
    case "ted":
      return Effect.flatMap(common("ted"), (settings) => makeTedFeed(given(settings))).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    case "eaeu":
      return Effect.gen(function* () {
        const { baseUrl, ...shared } = yield* common("eaeu")
        const token = yield* optionalSetting(sourceSetting("eaeu", "TOKEN"))
        const rssUrl = yield* optionalSetting(sourceSetting("eaeu", "RSS_URL"))
        const soapUrl = yield* optionalSetting(sourceSetting("eaeu", "SOAP_URL"))
        return yield* makeEisFeed({
          token: token ?? null,
          ...given({ ...shared, rssUrl, soapUrl: soapUrl ?? baseUrl })
        })
      }).pipe(Effect.provide(FetchHttpClient.layer))
    case "gnumner":
      return Effect.gen(function* () {
        const settings = yield* common("gnumner")
        const insecureTlsHosts = yield* commaList(sourceSetting("gnumner", "INSECURE_TLS_HOSTS"))
        return yield* makeGnumnerFeed({ ...given(settings), insecureTlsHosts }).pipe(
          Effect.provide(gnumnerHttpClientLayer(insecureTlsHosts))
        )
      })
  }
}
