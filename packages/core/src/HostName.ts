import { Result } from "effect"
import { Host, NetAddress } from "effect/net"

/**
 * The one rule for the host of a URL or an e-mail domain given to the service (webhooks, OAuth redirect URIs and
 * metadata documents, e-mail addresses): an IP literal, or a DNS name in its ASCII form (IDN as A-labels) of labels
 * of letters, digits and inner hyphens, at most 253 characters, without a trailing dot. WHATWG URL lets through
 * hosts such as `a;sandbox`, `a,b` or `*` that name no machine and break the headers built from them.
 * `singleLabel: false` also refuses a name of one label (`intranet`, and `x` of `https:///x`), which no public
 * host has. The host's normal form: lower case, A-labels, IP addresses as `NetAddress` writes them.
 */
export const parseHostName = (
  host: string,
  options: { readonly singleLabel: boolean }
): Result.Result<string, string> => {
  const literal = /^\[(.*)\]$/u.exec(host)?.[1]
  if (literal !== undefined) {
    const ip = NetAddress.ipv6FromString(literal)
    return Result.isSuccess(ip) ? Result.succeed(`[${NetAddress.formatIp(ip.success)}]`) : Result.fail(badHost(host))
  }
  if (host.endsWith(".")) return Result.fail(`host ${shown(host)} must not end with a dot`)
  const ipv4 = NetAddress.ipv4FromString(host)
  if (Result.isSuccess(ipv4)) return Result.succeed(NetAddress.formatIp(ipv4.success))
  const name = Host.domainNameFromString(host)
  if (Result.isFailure(name) || name.success.includes("_")) {
    return Result.fail(badHost(host))
  }
  if (!options.singleLabel && !name.success.includes(".")) return Result.fail(`host ${shown(host)} is a single label`)
  return Result.succeed(name.success)
}

/** Why a host is refused by `parseHostName`, or undefined. */
export const hostNameProblem = (host: string, options: { readonly singleLabel: boolean }): string | undefined =>
  Result.match(parseHostName(host, options), { onFailure: (problem) => problem, onSuccess: () => undefined })

const shown = (host: string) => JSON.stringify(host.length > 80 ? `${host.slice(0, 80)}…` : host)
const badHost = (host: string) => `host ${shown(host)} is not a host name or an IP address`

/**
 * Why a URL's authority is refused: WHATWG URL reads `https:///x` and `https:x` as the host `x`, so the raw text
 * must name its host after `//`.
 */
export const authorityProblem = (raw: string): string | undefined =>
  /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]/iu.test(raw) ? undefined : "must name its host after //"

/** Whether a URL's host names this machine: `localhost`, or a loopback IP literal (127.0.0.0/8, `[::1]`). */
export const isLoopbackHost = (hostname: string): boolean => {
  if (hostname === "localhost") return true
  const literal = /^\[(.*)\]$/u.exec(hostname)?.[1]
  const ip: Result.Result<NetAddress.IpAddress, unknown> =
    literal === undefined ? NetAddress.ipv4FromString(hostname) : NetAddress.ipv6FromString(literal)
  return Result.isSuccess(ip) && NetAddress.isLoopback(ip.success)
}
