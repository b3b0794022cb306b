import { Context, Schema } from "effect"
import { Filters, hasWord, usedStructuredFilters } from "./Filters.ts"
import { Text } from "./Text.ts"

/** Where a watchlist's alerts go (spec "Watchlist (creation input)".channels). */
export const Channels = Schema.Struct({
  email: Schema.optionalKey(Schema.Boolean),
  webhook: Schema.optionalKey(
    Text({ max: 2048 }).annotate({
      format: "uri",
      description: "HTTPS endpoint for signed JSON alerts"
    })
  )
}).annotate({ identifier: "Channels" })
export type Channels = typeof Channels.Type

/** `host:port` entries operators allow as webhook targets despite the address checks (TENDERS_WEBHOOK_ALLOW_HOSTS). */
export const WebhookAllowHosts = Context.Reference<ReadonlyArray<string>>("@tenders/core/WebhookAllowHosts", {
  defaultValue: () => []
})

/** The body of `POST /v1/watchlists`. */
export const WatchlistInput = Schema.Struct({
  name: Text({ min: 1, max: 100 }),
  filters: Filters,
  channels: Schema.optionalKey(Channels)
}).annotate({ identifier: "WatchlistInput" })
export type WatchlistInput = typeof WatchlistInput.Type

/** The answer of `POST /v1/watchlists` (201). */
export const WatchlistCreated = Schema.Struct({
  watchlistId: Schema.String.check(Schema.isUUID()),
  estimatedMatches: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 9007199254740991 })),
  hint: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "WatchlistCreated" })
export type WatchlistCreated = typeof WatchlistCreated.Type

/** A filter set that narrows nothing: no word in `q` and no structured filter (DESIGN §4). */
export const matchesEverything = (filters: Filters): boolean =>
  !hasWord(filters.q) && usedStructuredFilters(filters).length === 0

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/u

const privateIpv4 = (host: string): boolean => {
  const m = ipv4.exec(host)
  if (m === null) return false
  const [a = 0, b = 0] = [Number(m[1]), Number(m[2])]
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a >= 224
  )
}

const privateIpv6 = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/gu, "").toLowerCase()
  if (!h.includes(":")) return false
  if (h === "::" || h === "::1") return true
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/u.exec(h)
  if (mapped?.[1] !== undefined) return privateIpv4(mapped[1])
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/u.exec(h)
  if (mappedHex?.[1] !== undefined && mappedHex[2] !== undefined) {
    const hi = parseInt(mappedHex[1], 16)
    const lo = parseInt(mappedHex[2], 16)
    return privateIpv4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`)
  }
  return /^f[cd]/u.test(h) || /^fe[89ab]/u.test(h) || h.startsWith("ff")
}

/**
 * Why a webhook URL is refused at creation, or undefined when it is acceptable: HTTPS only, and no literal
 * private, loopback, link-local or metadata address (names are checked again after DNS at delivery).
 */
export const webhookProblem = (url: string, allowHosts: ReadonlyArray<string> = []): string | undefined => {
  if (!URL.canParse(url)) return "channels.webhook must be an absolute URL"
  const parsed = new URL(url)
  if (parsed.protocol !== "https:") return "channels.webhook must use https"
  if (parsed.username !== "" || parsed.password !== "") return "channels.webhook must not carry credentials"
  const host = parsed.hostname.toLowerCase()
  if (
    allowHosts.includes(`${host.replace(/^\[|\]$/gu, "")}:${parsed.port === "" ? "443" : parsed.port}`) ||
    allowHosts.includes(parsed.host)
  )
    return undefined
  if (host === "localhost" || host.endsWith(".localhost") || privateIpv4(host) || privateIpv6(host)) {
    return "channels.webhook must not point to a private, loopback, link-local or metadata address"
  }
  return undefined
}
