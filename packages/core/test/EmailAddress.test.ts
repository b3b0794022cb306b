import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { emailLimits, hostNameProblem, parseEmailAddress } from "../src/index.ts"

const octets = (text: string) => new TextEncoder().encode(text).length
const accepted = (text: string) => Result.getOrUndefined(parseEmailAddress(text))

const atext = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-")
const atom = fc.string({ unit: atext, minLength: 1, maxLength: 12 })
const localPart = fc.array(atom, { minLength: 1, maxLength: 4 }).map((atoms) => atoms.join("."))
const label = fc
  .string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"), minLength: 1, maxLength: 20 })
  .filter((l) => !l.startsWith("-") && !l.endsWith("-"))
const tld = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"), minLength: 2, maxLength: 6 })
const domain = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([ls, t]) => [...ls, t].join("."))
const address = fc.tuple(localPart, domain).map(([l, d]) => `${l}@${d}`)

// Characters no address may hold anywhere: C0 and C1 controls, format characters (bidi controls, zero widths), line
// and paragraph separators, and the separators and quotes a mail header reads as the end of one mailbox.
const forbidden = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom("\u00ad", "\u200b", "\u200c", "\u200d", "\u200e", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff"),
  fc.constantFrom("\u2028", "\u2029", ",", ";", ":", "<", ">", '"', "(", ")", "[", "]", "\\", "@", " ", "\u00a0")
)

describe("the e-mail address rule (one rule for every address that enters)", () => {
  it("accepts no more than one mailbox, in a normal form that the rule accepts again unchanged", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), address, fc.emailAddress()), (text) => {
        const normal = accepted(text)
        if (normal === undefined) return
        assert.strictEqual(normal.split("@").length, 2)
        const [local = "", host = ""] = normal.split("@")
        assert.isAtMost(octets(normal), emailLimits.total)
        assert.isAtMost(octets(local), emailLimits.localPart)
        assert.notMatch(normal, /[\p{Cc}\p{Cf}\p{Z}\s,;:<>"()[\]\\]/u)
        assert.match(host, /^[a-z0-9.-]+$/u)
        assert.isUndefined(hostNameProblem(host, { singleLabel: false }))
        assert.strictEqual(normal, normal.toLowerCase())
        assert.strictEqual(accepted(normal), normal)
      }),
      { numRuns: 2000 }
    )
  })

  it("accepts every dot-atom address on a host name, in lower case, and what fast-check calls an address", () => {
    fc.assert(
      fc.property(address, (text) => {
        assert.strictEqual(accepted(text), text.toLowerCase())
      })
    )
    fc.assert(
      fc.property(fc.emailAddress({ size: "small" }), (text) => {
        // fast-check's addresses may use an IP-like last label or exceed the sizes; those are refused by design.
        if (octets(text) <= emailLimits.total && !/\.\d+$/u.test(text)) assert.isDefined(accepted(text), text)
      })
    )
  })

  it("refuses an address with a control, format or separator character anywhere in it", () => {
    fc.assert(
      fc.property(address, forbidden, fc.nat(), (text, character, at) => {
        const position = 1 + (at % (text.length - 1))
        const spoiled = `${text.slice(0, position)}${character}${text.slice(position)}`
        assert.isUndefined(accepted(spoiled), JSON.stringify(spoiled))
      }),
      { numRuns: 2000 }
    )
  })

  it("refuses two addresses given as one, whatever joins them", () => {
    fc.assert(
      fc.property(
        address,
        address,
        fc.constantFrom(",", ", ", ";", " ", "\r\n", "\n", "\r\nbcc: ", "\t"),
        (a, b, j) => {
          assert.isUndefined(accepted(`${a}${j}${b}`))
        }
      )
    )
  })

  it("keeps RFC 5321's sizes and writes international domains as A-labels", () => {
    const local64 = "l".repeat(64)
    const domain = `${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(57)}.org`
    assert.strictEqual(octets(`${local64}@${domain}`), 254)
    assert.isDefined(accepted(`${local64}@${domain}`))
    assert.isUndefined(accepted(`${local64}@x${domain}`))
    assert.isUndefined(accepted(`${local64}l@example.org`))
    assert.strictEqual(accepted("Jörg@Bücher.Example"), "jörg@xn--bcher-kva.example")
    assert.strictEqual(accepted("  person@example.org  "), "person@example.org")
    for (const refused of ["person@localhost", "person@[192.0.2.1]", "person@192.0.2.1", "person@example.org.", ""]) {
      assert.isUndefined(accepted(refused), refused)
    }
    assert.isUndefined(accepted(`${"x".repeat(12_000)}@example.org`))
    assert.isUndefined(accepted("\u0000"))
  })
})
