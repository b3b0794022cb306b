import { Config, ConfigProvider, Duration, Effect } from "effect"
import { authorityProblem, hostNameProblem } from "./HostName.ts"
import type { SourceCode } from "./Source.ts"

/** Where the embedded store and the e-mail outbox live unless `TENDERS_DATA_DIR` (or `--data-dir`) says otherwise. */
export const defaultDataDir = "./.data"

/** The environment variable of one source's setting: `TENDERS_<SOURCE>_<SETTING>`. */
export const sourceSetting = (source: SourceCode, setting: string): string =>
  `TENDERS_${source.toUpperCase()}_${setting}`

/** How often each source is fetched unless `TENDERS_<SOURCE>_INTERVAL` says otherwise. */
export const defaultSourceIntervals: Readonly<Record<SourceCode, Duration.Duration>> = {
  ted: Duration.hours(1),
  gnumner: Duration.hours(2),
  eaeu: Duration.hours(1)
}

const intervalOf = (source: SourceCode) =>
  Config.Duration(sourceSetting(source, "INTERVAL")).pipe(Config.withDefault(defaultSourceIntervals[source]))

/** Each source's interval: `TENDERS_<SOURCE>_INTERVAL` ("30 minutes", "2 hours"), else the default. */
export const sourceIntervalsConfig: Config.Config<Record<SourceCode, Duration.Duration>> = Config.all({
  ted: intervalOf("ted"),
  gnumner: intervalOf("gnumner"),
  eaeu: intervalOf("eaeu")
})

/** A comma-separated list setting (blank entries dropped); empty when unset. */
export const commaList = (name: string): Config.Config<ReadonlyArray<string>> =>
  Config.String(name).pipe(
    Config.map((text) =>
      text
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0)
    ),
    Config.withDefault([])
  )

/** An optional string setting; a blank value counts as unset. */
export const optionalSetting = (name: string): Config.Config<string | undefined> =>
  Config.String(name).pipe(
    Config.map((text) => (text.trim() === "" ? undefined : text)),
    Config.withDefault(undefined)
  )

const invalid = (message: string) => Effect.fail(new Config.ConfigError(new ConfigProvider.SourceError({ message })))

/** The longest a webhook attempt may take, and the default of `TENDERS_WEBHOOK_TIMEOUT`. */
export const maxWebhookTimeout = Duration.seconds(10)

/** `TENDERS_WEBHOOK_TIMEOUT`: how long one webhook attempt may take, more than 0 and at most 10 seconds. */
export const webhookTimeoutConfig: Config.Config<Duration.Duration> = Config.Duration("TENDERS_WEBHOOK_TIMEOUT").pipe(
  Config.withDefault(maxWebhookTimeout),
  Config.mapEffect((timeout) =>
    Duration.isGreaterThan(timeout, Duration.zero) && Duration.isLessThanOrEqualTo(timeout, maxWebhookTimeout)
      ? Effect.succeed(timeout)
      : invalid("TENDERS_WEBHOOK_TIMEOUT must be more than 0 and at most 10 seconds")
  )
)

/** How long one attempt holds a delivery before another worker may take it again (`TENDERS_DELIVERY_LEASE`). */
export const defaultDeliveryLease = Duration.minutes(2)

/** How often `serve` checks the schedule and sweeps deadlines, alerts and deliveries (`TENDERS_SCHEDULER_TICK`). */
export const defaultSchedulerTick = Duration.seconds(15)

/** The timing of the background work of `tenders serve`. */
export interface BackgroundSettings {
  readonly tick: Duration.Duration
  readonly deliveryLease: Duration.Duration
  readonly webhookTimeout: Duration.Duration
  /** How long a replica holds a source's slot between pages before another may resume the run; unset, `leaseFor`. */
  readonly sourceLease?: Duration.Duration | undefined
}

/**
 * `TENDERS_SCHEDULER_TICK`, `TENDERS_DELIVERY_LEASE`, `TENDERS_WEBHOOK_TIMEOUT` and `TENDERS_SOURCE_LEASE`; the
 * delivery lease must outlast an attempt by a second, or a second worker could send a delivery still in flight.
 */
export const backgroundSettingsConfig: Config.Config<BackgroundSettings> = Config.all({
  tick: Config.Duration("TENDERS_SCHEDULER_TICK").pipe(Config.withDefault(defaultSchedulerTick)),
  deliveryLease: Config.Duration("TENDERS_DELIVERY_LEASE").pipe(Config.withDefault(defaultDeliveryLease)),
  webhookTimeout: webhookTimeoutConfig,
  sourceLease: Config.Duration("TENDERS_SOURCE_LEASE").pipe(Config.withDefault(undefined))
}).pipe(
  Config.mapEffect((settings) =>
    Duration.isGreaterThan(settings.deliveryLease, Duration.sum(settings.webhookTimeout, Duration.seconds(1)))
      ? Effect.succeed(settings)
      : invalid(
          `TENDERS_DELIVERY_LEASE (${Duration.format(settings.deliveryLease)}) must be longer than ` +
            `TENDERS_WEBHOOK_TIMEOUT (${Duration.format(settings.webhookTimeout)}) plus 1 second`
        )
  )
)

/** How many search answers a server keeps by default (`TENDERS_SEARCH_CACHE`; decisions.md, the result cache). */
export const defaultSearchCacheEntries = 4000

/** `TENDERS_SEARCH_CACHE`: how many search answers `serve` keeps (0: none, every search runs). */
export const searchCacheConfig: Config.Config<number> = Config.Int("TENDERS_SEARCH_CACHE").pipe(
  Config.withDefault(defaultSearchCacheEntries),
  Config.mapEffect((entries) =>
    entries >= 0 && entries <= 100_000 ? Effect.succeed(entries) : invalid("TENDERS_SEARCH_CACHE must be 0 to 100000")
  )
)

/** `TENDERS_SIGNUP`: whether a first dashboard sign-in creates a Free account (`open`, the default) or not. */
export const signUpConfig: Config.Config<"open" | "closed"> = Config.String("TENDERS_SIGNUP").pipe(
  Config.withDefault("open"),
  Config.mapEffect((value) =>
    value === "open" || value === "closed" ? Effect.succeed(value) : invalid("TENDERS_SIGNUP must be open or closed")
  )
)

/**
 * `TENDERS_PUBLIC_URL`: the address people and agents reach the server at (sign-in links, OAuth metadata), an http
 * or https URL without query or fragment; `fallback` (the listening address) when unset.
 */
export const publicUrlConfig = (fallback: string): Config.Config<URL> =>
  Config.String("TENDERS_PUBLIC_URL").pipe(
    Config.withDefault(fallback),
    Config.mapEffect((text) => {
      const url = URL.canParse(text) ? new URL(text) : undefined
      return url !== undefined &&
        (url.protocol === "http:" || url.protocol === "https:") &&
        authorityProblem(text) === undefined &&
        hostNameProblem(url.hostname, { singleLabel: true }) === undefined &&
        url.search === "" &&
        url.hash === "" &&
        url.username === "" &&
        url.password === ""
        ? Effect.succeed(url)
        : invalid(
            "TENDERS_PUBLIC_URL must be an http or https URL of a host name or IP address, without credentials, " +
              "query or fragment"
          )
    })
  )
