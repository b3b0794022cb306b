import { Config, ConfigProvider, Effect, Result } from "effect"
import { IpNetwork } from "effect/net"
import { commaList } from "./Settings.ts"

/** One entry of `TENDERS_TRUSTED_PROXIES`: a network in CIDR notation, or one address (a network of one). */
const proxyNetwork = (entry: string) =>
  IpNetwork.fromString(entry.includes("/") ? entry : `${entry}/${entry.includes(":") ? 128 : 32}`)

/**
 * `TENDERS_TRUSTED_PROXIES`: the reverse proxies in front of the server, IP addresses or CIDR networks separated by
 * commas. Empty by default: `X-Forwarded-For` is then ignored (anybody can send it). The server believes the header
 * only from these (Effect's `HttpMiddleware.xForwardedHeaders`), so that a request's `remoteAddress` is its client's,
 * for the limits per client.
 */
export const trustedProxiesConfig: Config.Config<ReadonlyArray<IpNetwork.IpNetwork>> = commaList(
  "TENDERS_TRUSTED_PROXIES"
).pipe(
  Config.mapEffect((entries) =>
    Effect.forEach(entries, (entry) =>
      Result.match(proxyNetwork(entry), {
        onSuccess: Effect.succeed,
        onFailure: () =>
          Effect.fail(
            new Config.ConfigError(
              new ConfigProvider.SourceError({
                message: `TENDERS_TRUSTED_PROXIES: ${entry} is not an IP address or a CIDR network (give them separated by commas)`
              })
            )
          )
      })
    )
  )
)
