import { makeRatesFeed } from "@tenders/adapters-sources"
import { optionalSetting, type RatesFeed } from "@tenders/core"
import { Config, Effect } from "effect"
import { FetchHttpClient } from "effect/http"

/** Only the settings that were given, so the feed's defaults apply to the rest. */
const given = (settings: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined))

/**
 * The reference rates' publishers (README, "Configuration"): TENDERS_RATES_ECB_URL (the folder of the ECB's
 * `eurofxref` files), TENDERS_RATES_CBR_URL (`XML_daily.asp`), TENDERS_RATES_CBA_URL (`exchangerates.asmx`), each
 * through the feeds' one HTTP policy.
 */
export const ratesFeed: Effect.Effect<RatesFeed, Config.ConfigError> = Effect.flatMap(
  Config.all({
    ecbBaseUrl: optionalSetting("TENDERS_RATES_ECB_URL"),
    cbrUrl: optionalSetting("TENDERS_RATES_CBR_URL"),
    cbaUrl: optionalSetting("TENDERS_RATES_CBA_URL")
  }),
  (settings) => makeRatesFeed(given(settings)).pipe(Effect.provide(FetchHttpClient.layer))
)

/** Whether `tenders serve` refreshes the rates each quarter: TENDERS_RATES_REFRESH (`on` by default, or `off`). */
export const ratesRefreshOn: Config.Config<boolean> = Config.Literals(["on", "off"], "TENDERS_RATES_REFRESH").pipe(
  Config.withDefault("on"),
  Config.map((value) => value === "on")
)
