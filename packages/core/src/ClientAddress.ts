import { Config, ConfigProvider, Effect } from "effect"
import { isIpAddress } from "./PublicAddress.ts"

/**
 * `TENDERS_TRUSTED_PROXIES`: the addresses of reverse proxies in front of the server (IPs, comma-separated). Empty
 * by default: `X-Forwarded-For` is then ignored (anybody can send it).
 */
export const trustedProxiesConfig: Config.Config<ReadonlyArray<string>> = Config.String("TENDERS_TRUSTED_PROXIES").pipe(
  Config.withDefault(""),
  Config.mapEffect((text) => {
    const addresses = text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
    const wrong = addresses.find((address) => !isIpAddress(address))
    if (wrong === undefined) return Effect.succeed(addresses)
    const message = `TENDERS_TRUSTED_PROXIES: ${wrong} is not an IP address (give addresses separated by commas)`
    return Effect.fail(new Config.ConfigError(new ConfigProvider.SourceError({ message })))
  })
)

/**
 * The address a request comes from, for limits per client: the connection's, or, when that is a trusted proxy, the
 * last address of `X-Forwarded-For` that is not one (each proxy appends the address it was reached from).
 */
export const clientAddressOf = (
  remote: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlyArray<string>
): string => {
  const connection = remote ?? "unknown"
  if (!trusted.includes(connection)) return connection
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(isIpAddress)
  return forwarded.toReversed().find((address) => !trusted.includes(address)) ?? connection
}
