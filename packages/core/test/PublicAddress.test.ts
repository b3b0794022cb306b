import { assert, describe, it } from "@effect/vitest"
import { NetAddress } from "effect/net"
import * as fc from "fast-check"
import { addressProblem, isIpAddress } from "../src/index.ts"

// The previous hand parser, kept as the oracle of this differential test: `PublicAddress.ts` before `effect/net`,
// copied unchanged (only its export renamed `previousAddressProblem`).

interface Ip {
  readonly family: 4 | 6
  readonly value: bigint
}

/** How an IPv4 address is carried inside an IPv6 range: in its last 32 bits, or in bits 16-47 (6to4). */
type Embedding = "last32" | "6to4"

interface Range {
  readonly family: 4 | 6
  readonly network: bigint
  readonly prefix: number
  readonly cidr: string
  readonly why: string
  readonly embeds?: Embedding
  /** An embedded public IPv4 address makes the whole address public (the translator reaches that address). */
  readonly publicWhenEmbeddedIsPublic?: boolean
}

const parseIpv4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/u.test(part) || Number(part) > 255) return undefined
    value = (value << 8n) | BigInt(part)
  }
  return value
}

const parseIpv6 = (text: string): bigint | undefined => {
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (half: string | undefined, final: boolean): Array<string> | undefined => {
    if (half === undefined || half === "") return []
    const parts = half.split(":")
    const last = parts.at(-1) ?? ""
    if (!last.includes(".") || !final) return parts
    const v4 = parseIpv4(last)
    if (v4 === undefined) return undefined
    return [...parts.slice(0, -1), (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)]
  }
  const head = groups(halves[0], halves.length === 1)
  const tail = groups(halves[1], true)
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  let value = 0n
  for (const group of [...head, ...Array<string>(missing).fill("0"), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/iu.test(group)) return undefined
    value = (value << 16n) | BigInt(`0x${group}`)
  }
  return value
}

/** An IPv4 (dotted quad) or IPv6 address; a zone (`fe80::1%eth0`) is ignored. */
const parseIp = (text: string): Ip | undefined => {
  const v4 = parseIpv4(text)
  if (v4 !== undefined) return { family: 4, value: v4 }
  const v6 = text.includes(":") ? parseIpv6(text.split("%")[0] ?? "") : undefined
  return v6 === undefined ? undefined : { family: 6, value: v6 }
}

const formatIpv4 = (value: bigint): string => [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join(".")

const range = (
  cidr: string,
  why: string,
  embedding: Partial<Pick<Range, "embeds" | "publicWhenEmbeddedIsPublic">> = {}
) => {
  const [address = "", prefix = ""] = cidr.split("/")
  const ip = parseIp(address)
  if (ip === undefined) throw new Error(`bad range ${cidr}`)
  return { family: ip.family, network: ip.value, prefix: Number(prefix), cidr, why, ...embedding } satisfies Range
}

const bits = (family: 4 | 6): bigint => (family === 4 ? 32n : 128n)

const contains = (r: Range, ip: Ip): boolean => {
  const shift = bits(ip.family) - BigInt(r.prefix)
  return r.family === ip.family && ip.value >> shift === r.network >> shift
}

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

const embedded = (ip: Ip, embedding: Embedding): Ip => ({
  family: 4,
  value: (embedding === "6to4" ? ip.value >> 80n : ip.value) & 0xffffffffn
})

const problemOf = (ip: Ip): string | undefined => {
  const hit = ranges.find((r) => contains(r, ip))
  if (hit === undefined) return undefined
  if (hit.embeds === undefined) return `is in ${hit.cidr} (${hit.why})`
  const v4 = embedded(ip, hit.embeds)
  const inner = problemOf(v4)
  if (inner !== undefined) return `embeds ${formatIpv4(v4.value)} (${hit.why}), which ${inner}`
  return hit.publicWhenEmbeddedIsPublic === true ? undefined : `is in ${hit.cidr} (${hit.why})`
}

const previousAddressProblem = (address: string): string | undefined => {
  const ip = parseIp(address)
  if (ip === undefined) return `"${address}" is not an IP address`
  const problem = problemOf(ip)
  return problem === undefined ? undefined : `${address} ${problem}`
}

const sameAsBefore = (text: string) => {
  assert.strictEqual(addressProblem(text), previousAddressProblem(text), text)
  assert.strictEqual(isIpAddress(text), parseIp(text) !== undefined, text)
}

/** An IPv6 value in eight groups, or compressed as `NetAddress` writes it (`::ffff:1.2.3.4` for a mapped one). */
const ipv6Text = (value: bigint, compressed: boolean): string => {
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => Number((value >> BigInt(120 - 8 * i)) & 0xffn))
  const ip = NetAddress.ipv6FromBytesUnsafe(bytes)
  return compressed
    ? NetAddress.formatIp(ip)
    : NetAddress.ipv6ToSegments(ip)
        .map((s) => s.toString(16))
        .join(":")
}

const addressChar = fc.constantFrom(..."0123456789abcdefABCDEF:.%")
/** A valid address with one character inserted, replaced or deleted. */
const nearMiss = fc
  .tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.nat(), fc.nat(2), addressChar)
  .map(([address, at, edit, char]) => {
    const i = at % (address.length + 1)
    return address.slice(0, i) + (edit === 2 ? "" : char) + address.slice(edit === 0 ? i : i + 1)
  })

describe("the address policy on effect/net", () => {
  it("refuses leading zeros, reads hex in any case and a trailing dotted quad, and ignores only an IPv6 zone", () => {
    assert.match(addressProblem("010.0.0.1") ?? "", /is not an IP address/u)
    assert.isUndefined(addressProblem("::FFFF:1.1.1.1"))
    assert.match(addressProblem("::ffff:0A00:1") ?? "", /embeds 10\.0\.0\.1 \(IPv4-mapped\)/u)
    // NetAddress refuses every zone (and its scoped literal an empty one): the zone is cut off before parsing.
    assert.match(addressProblem("fe80::1%eth0") ?? "", /is in fe80::\/10/u)
    assert.isUndefined(addressProblem("2606:4700::1111%"))
    assert.isTrue(isIpAddress("fe80::1%eth0"))
    for (const zoned of ["1.1.1.1%eth0", "1.1.1.1%a:b"]) assert.isFalse(isIpAddress(zoned), zoned)
  })

  it("gives the previous verdict on every IPv4 address, and refuses the forms WHATWG URL would normalise", () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended()), sameAsBefore), { numRuns: 2000 })
  })

  it("gives the previous verdict on every IPv6 address, in any case, with or without a zone", () => {
    const withZone = fc
      .tuple(fc.mixedCase(fc.ipV6()), fc.option(fc.string(), { nil: undefined }))
      .map(([address, zone]) => (zone === undefined ? address : `${address}%${zone}`))
    fc.assert(fc.property(withZone, sameAsBefore), { numRuns: 2000 })
  })

  it("gives the previous verdict on near misses and scrambled address characters", () => {
    fc.assert(fc.property(fc.oneof(nearMiss, fc.string({ unit: addressChar, maxLength: 45 })), sameAsBefore), {
      numRuns: 5000
    })
  })

  it("gives the previous verdict inside every range and just outside it", () => {
    const anyBits = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n })
    fc.assert(
      fc.property(anyBits, fc.boolean(), (noise, compressed) => {
        for (const r of ranges) {
          const hostBits = bits(r.family) - BigInt(r.prefix)
          const inside = r.network | (noise & ((1n << hostBits) - 1n))
          for (const value of [inside, inside ^ (1n << hostBits)]) {
            sameAsBefore(r.family === 4 ? formatIpv4(value) : ipv6Text(value, compressed))
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("judges an IPv4-mapped, NAT64 or 6to4 address as the IPv4 inside it, and IPv4-compatible as before", () => {
    const forms = fc.tuple(
      fc.ipV4(),
      fc.constantFrom("mapped", "NAT64", "6to4", "compatible"),
      fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }),
      fc.constantFrom("dotted", "groups", "compressed")
    )
    fc.assert(
      fc.property(forms, ([v4, form, rest, written]) => {
        const inner = parseIpv4(v4) ?? 0n
        const value =
          form === "mapped"
            ? (0xffffn << 32n) | inner
            : form === "NAT64"
              ? (0x64ff9bn << 96n) | inner
              : form === "6to4"
                ? (0x2002n << 112n) | (inner << 80n) | rest
                : inner
        const prefix = { mapped: "::ffff:", NAT64: "64:ff9b::", compatible: "::", "6to4": undefined }[form]
        const text =
          written === "dotted" && prefix !== undefined ? `${prefix}${v4}` : ipv6Text(value, written === "compressed")
        sameAsBefore(text)
        if (form === "compatible") return
        const problem = addressProblem(text)
        assert.strictEqual(problem === undefined, addressProblem(v4) === undefined, text)
        if (problem !== undefined) assert.include(problem, `embeds ${v4} (`, text)
      }),
      { numRuns: 2000 }
    )
  })
})
