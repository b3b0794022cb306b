// The one webhook address policy (IANA special-purpose ranges), checked at watchlist creation and on every delivery.
import { Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

/** How an IPv4 address is carried inside an IPv6 range: in its last 32 bits, or in bits 16-47 (6to4). */
type Embedding = "last32" | "6to4"

interface Range {
  readonly network: IpNetwork.IpNetwork
  /** As written here: `IpNetwork.format` would print `::ffff:0:0/96` as `::ffff:0.0.0.0/96`. */
  readonly cidr: string
  readonly why: string
  readonly embeds?: Embedding
  /** An embedded public IPv4 address makes the whole address public (the translator reaches that address). */
  readonly publicWhenEmbeddedIsPublic?: boolean
}

const range = (
  cidr: string,
  why: string,
  embedding: Partial<Pick<Range, "embeds" | "publicWhenEmbeddedIsPublic">> = {}
): Range => ({ network: IpNetwork.fromStringUnsafe(cidr), cidr, why, ...embedding })

/** Every range a webhook must not reach, first match wins (so a narrower range comes before a wider one). */
const ranges: ReadonlyArray<Range> = [
  range("0.0.0.0/8", '"this" network'),
  range("10.0.0.0/8", "private"),
  range("100.64.0.0/10", "carrier-grade NAT, incl. metadata 100.100.100.200"),
  range("127.0.0.0/8", "loopback"),
  range("169.254.0.0/16", "link-local, incl. metadata 169.254.169.254"),
  range("172.16.0.0/12", "private"),
  range("192.0.0.0/24", "IETF protocol assignments"),
  range("192.0.2.0/24", "documentation"),
  range("192.88.99.0/24", "deprecated 6to4 relay anycast"),
  range("192.168.0.0/16", "private"),
  range("198.18.0.0/15", "benchmarking"),
  range("198.51.100.0/24", "documentation"),
  range("203.0.113.0/24", "documentation"),
  range("224.0.0.0/4", "multicast"),
  range("255.255.255.255/32", "broadcast"),
  range("240.0.0.0/4", "reserved"),
  range("::/128", "unspecified"),
  range("::1/128", "loopback"),
  range("::ffff:0:0/96", "IPv4-mapped", { embeds: "last32", publicWhenEmbeddedIsPublic: true }),
  range("::/96", "deprecated IPv4-compatible", { embeds: "last32" }),
  range("64:ff9b::/96", "NAT64", { embeds: "last32", publicWhenEmbeddedIsPublic: true }),
  range("64:ff9b:1::/48", "local-use NAT64"),
  range("100::/64", "discard-only"),
  range("2001:db8::/32", "documentation"),
  range("2001::/23", "IETF protocol assignments, incl. Teredo"),
  range("2002::/16", "6to4", { embeds: "6to4", publicWhenEmbeddedIsPublic: true }),
  range("3fff::/20", "documentation"),
  range("5f00::/16", "segment routing"),
  range("fc00::/7", "unique-local, incl. metadata fd00:ec2::254"),
  range("fe80::/10", "link-local"),
  range("fec0::/10", "deprecated site-local"),
  range("ff00::/8", "multicast"),
  range("::/3", "reserved by the IETF"),
  range("4000::/2", "not global unicast"),
  range("8000::/1", "not global unicast")
]

/** An IPv4 dotted quad or an IPv6 address without brackets; a zone (`fe80::1%eth0`) is ignored. */
const parseIp = (text: string): NetAddress.IpAddress | undefined => {
  if (!text.includes(":")) return Result.getOrUndefined(NetAddress.ipv4FromString(text))
  // Any zone, even empty, is cut off: `ipv6FromString` refuses `%`, and `scopedIpv6LiteralFromString` some zones.
  return Result.getOrUndefined(NetAddress.ipv6FromString(text.split("%")[0] ?? ""))
}

const embedded = (ip: NetAddress.Ipv6Address, embedding: Embedding): NetAddress.Ipv4Address => {
  const at = embedding === "6to4" ? 2 : 12
  return NetAddress.ipv4FromBytesUnsafe(Uint8Array.from(NetAddress.ipv6ToOctets(ip).slice(at, at + 4)))
}

const problemOf = (ip: NetAddress.IpAddress): string | undefined => {
  const hit = ranges.find((r) => IpNetwork.contains(r.network, ip))
  if (hit === undefined) return undefined
  if (hit.embeds === undefined || !NetAddress.isIpv6Address(ip)) return `is in ${hit.cidr} (${hit.why})`
  const v4 = embedded(ip, hit.embeds)
  const inner = problemOf(v4)
  if (inner !== undefined) return `embeds ${NetAddress.formatIp(v4)} (${hit.why}), which ${inner}`
  return hit.publicWhenEmbeddedIsPublic === true ? undefined : `is in ${hit.cidr} (${hit.why})`
}

/**
 * Why an IP address must not be connected to (not public unicast by the IANA special-purpose registries, the
 * IPv4 inside a mapped, IPv4-compatible, NAT64 or 6to4 address included), or undefined when it is public.
 */
export const addressProblem = (address: string): string | undefined => {
  const ip = parseIp(address)
  if (ip === undefined) return `"${address}" is not an IP address`
  const problem = problemOf(ip)
  return problem === undefined ? undefined : `${address} ${problem}`
}

/** Whether `text` is an IPv4 dotted quad or an IPv6 address (no brackets). */
export const isIpAddress = (text: string): boolean => parseIp(text) !== undefined
