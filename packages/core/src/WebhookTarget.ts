import { Config, ConfigProvider, Context, Effect, Layer, Result } from "effect"
import { authorityProblem, hostNameProblem } from "./HostName.ts"
import { addressProblem, isIpAddress } from "./PublicAddress.ts"
import { commaList } from "./Settings.ts"
import { textProblem } from "./Text.ts"

/** A webhook URL that passed the URL check: what delivery resolves, checks again and connects to. */
export interface WebhookTarget {
  readonly url: URL
  /** The host name or IP address, without IPv6 brackets. */
  readonly host: string
  readonly port: number
  /** The host is an IP address, not a name to resolve. */
  readonly isAddress: boolean
  /** On the operator's allow-list (`TENDERS_WEBHOOK_ALLOW_HOSTS`): the address policy does not apply. */
  readonly allowListed: boolean
}

const localNames = ["localhost", "metadata", "metadata.goog", "instance-data"]
const localSuffixes = [".localhost", ".local", ".internal", ".home.arpa"]

/** The one form the allow-list is matched in: the URL's host as WHATWG URL prints it, and the port. */
const hostPort = (url: URL): string => `${url.hostname}:${url.port === "" ? "443" : url.port}`

const hostProblem = (host: string): string | undefined => {
  if (isIpAddress(host)) {
    const problem = addressProblem(host)
    return problem === undefined ? undefined : `must not point to a non-public address: ${problem}`
  }
  const name = host.replace(/\.+$/u, "")
  if (localNames.includes(name) || localSuffixes.some((suffix) => name.endsWith(suffix))) {
    return `must not point to a local or metadata host name (${host})`
  }
  return name === host ? undefined : "host must not end with a dot"
}

/**
 * The one URL check of a webhook target, at creation and at delivery: the text rule on the raw string (WHATWG URL
 * would silently drop a tab, CR or LF), an absolute `https` URL that names its host after `//`, without credentials,
 * whose host is a host name of two labels or more or an IP address (core's host rule; one label only when
 * allow-listed), and unless `host:port` is allow-listed, no local or metadata name and no non-public address (IPv4
 * short, hex and octal forms arrive normalised by WHATWG URL). The failure says what is wrong, without the field's
 * name. `url` is the normalised URL, the form the watchlist keeps.
 */
export const parseWebhookTarget = (
  raw: string,
  allowHosts: ReadonlyArray<string>
): Result.Result<WebhookTarget, string> => {
  const text = textProblem(raw)
  if (text !== undefined) return Result.fail(text)
  if (raw.trim() !== raw) return Result.fail("must not start or end with a space")
  if (!URL.canParse(raw)) return Result.fail("must be an absolute URL")
  const url = new URL(raw)
  if (url.protocol !== "https:") return Result.fail("must use https")
  const authority = authorityProblem(raw)
  if (authority !== undefined) return Result.fail(authority)
  if (url.username !== "" || url.password !== "") return Result.fail("must not carry credentials")
  const host = url.hostname.replace(/^\[(.*)\]$/u, "$1")
  const allowListed = allowHosts.includes(hostPort(url))
  const problem =
    (allowListed ? undefined : hostProblem(host)) ?? hostNameProblem(url.hostname, { singleLabel: allowListed })
  if (problem !== undefined) return Result.fail(problem)
  const port = url.port === "" ? 443 : Number(url.port)
  return Result.succeed({ url, host, port, isAddress: isIpAddress(host), allowListed })
}

/** Why a webhook URL is refused at watchlist creation (`channels.webhook ...`), or undefined when it is acceptable. */
export const webhookProblem = (url: string, allowHosts: ReadonlyArray<string> = []): string | undefined => {
  const checked = parseWebhookTarget(url, allowHosts)
  return Result.isFailure(checked) ? `channels.webhook ${checked.failure}` : undefined
}

/** A webhook URL as a watchlist keeps it: normalised (WHATWG URL), or as given when the check refuses it. */
export const normalWebhookUrl = (url: string, allowHosts: ReadonlyArray<string> = []): string =>
  Result.match(parseWebhookTarget(url, allowHosts), { onFailure: () => url, onSuccess: (target) => target.url.href })

/** An allow-list entry in the form `parseWebhookTarget` matches, or undefined when it is not `host:port`. */
const allowEntry = (entry: string): string | undefined => {
  if (!/:\d+$/u.test(entry) || !URL.canParse(`https://${entry}/`)) return undefined
  const url = new URL(`https://${entry}/`)
  const bare = url.pathname === "/" && url.search === "" && url.username === "" && url.password === ""
  return bare && hostNameProblem(url.hostname, { singleLabel: true }) === undefined ? hostPort(url) : undefined
}

/** `TENDERS_WEBHOOK_ALLOW_HOSTS`: comma-separated `host:port` webhook targets exempt from the address policy. */
export const webhookAllowHostsConfig: Config.Config<ReadonlyArray<string>> = commaList(
  "TENDERS_WEBHOOK_ALLOW_HOSTS"
).pipe(
  Config.mapEffect((entries) =>
    Effect.forEach(entries, (entry) => {
      const normal = allowEntry(entry)
      return normal === undefined
        ? Effect.fail(
            new Config.ConfigError(
              new ConfigProvider.SourceError({
                message: `TENDERS_WEBHOOK_ALLOW_HOSTS: "${entry}" is not host:port (e.g. hooks.example.com:8443)`
              })
            )
          )
        : Effect.succeed(normal)
    })
  )
)

/** The parsed `TENDERS_WEBHOOK_ALLOW_HOSTS`, read by watchlist creation and by the notifier; empty by default. */
export const WebhookAllowHosts = Context.Reference<ReadonlyArray<string>>("@tenders/core/WebhookAllowHosts", {
  defaultValue: () => []
})

/** Provides `WebhookAllowHosts` from `TENDERS_WEBHOOK_ALLOW_HOSTS`. */
export const webhookAllowHostsLayer = Layer.effect(WebhookAllowHosts, webhookAllowHostsConfig)
