import { BlockList, isIP } from "node:net"

const blocked = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network, unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4")
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local, incl. metadata fd00:ec2::254
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8] // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6")
}

/** Canonical (compressed, lower-case) form of an IPv6 literal, e.g. `::ffff:127.0.0.1` -> `::ffff:7f00:1`. */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1)

const hextetsToIpv4 = (high: string, low: string): string => {
  const h = Number.parseInt(high, 16)
  const l = Number.parseInt(low, 16)
  return [h >> 8, h & 0xff, l >> 8, l & 0xff].join(".")
}

/** The IPv4 address embedded in an IPv4-mapped (`::ffff:0:0/96`) or NAT64 (`64:ff9b::/96`) address. */
const embeddedIpv4 = (canonical: string): string | null => {
  const match = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/u.exec(canonical)
  if (match !== null) return hextetsToIpv4(match[1] ?? "0", match[2] ?? "0")
  const short = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4})$/u.exec(canonical)
  return short === null ? null : hextetsToIpv4("0", short[1] ?? "0")
}

/**
 * Why an address must not be connected to (private, loopback, link-local, unique-local, multicast,
 * unspecified, CGNAT, metadata, and the IPv4-mapped forms of those), or null when it is public.
 */
export const refusedAddressReason = (rawAddress: string): string | null => {
  const address = rawAddress.split("%")[0] ?? rawAddress
  const family = isIP(address)
  if (family === 4) return blocked.check(address, "ipv4") ? `address ${address} is not public` : null
  if (family !== 6) return `"${rawAddress}" is not an IP address`
  const canonical = canonicalIpv6(address)
  const mapped = embeddedIpv4(canonical)
  if (mapped !== null) {
    return blocked.check(mapped, "ipv4") ? `address ${address} maps to non-public ${mapped}` : null
  }
  return blocked.check(canonical, "ipv6") ? `address ${address} is not public` : null
}
