import { assert, describe, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import { cpvPrefixesOf, hasWord, normalizeCpvPrefix, parseInstant, usedStructuredFilters } from "../src/index.ts"

describe("filters", () => {
  it("normalises CPV codes and prefixes as DESIGN §4 says", () => {
    assert.strictEqual(normalizeCpvPrefix("45000000-7"), "45")
    assert.strictEqual(normalizeCpvPrefix("45210000"), "4521")
    assert.strictEqual(normalizeCpvPrefix("452"), "452")
    assert.strictEqual(normalizeCpvPrefix("30000000"), "30")
    assert.strictEqual(normalizeCpvPrefix("03000000-1"), "03")
    assert.deepStrictEqual(cpvPrefixesOf("45233140"), ["45", "452", "4523", "45233", "452331", "4523314", "45233140"])
  })

  it("reads deadlineAfter as a date (00:00Z) or a date-time with Z or an offset, and refuses the rest", () => {
    const iso = (s: string) => Option.map(parseInstant(s), DateTime.formatIso)
    assert.deepStrictEqual(iso("2026-12-01"), Option.some("2026-12-01T00:00:00.000Z"))
    assert.deepStrictEqual(iso("2026-12-01T10:00:00+04:00"), Option.some("2026-12-01T06:00:00.000Z"))
    assert.deepStrictEqual(iso("2026-12-01T10:00Z"), Option.some("2026-12-01T10:00:00.000Z"))
    for (const bad of ["2026-02-30", "2026-13-01", "2026-12-01T10:00:00", "tomorrow", "2026-12-1", "2025-02-29"]) {
      assert.isTrue(Option.isNone(parseInstant(bad)), bad)
    }
    assert.isTrue(Option.isSome(parseInstant("2028-02-29")))
    assert.deepStrictEqual(iso("2000-02-29T23:30:00.123456789-0130"), Option.some("2000-03-01T01:00:00.123Z"))
    for (const bad of ["2100-02-29", "2026-04-31T00:00Z", "2026-00-10", "2026-12-00T00:00Z", "2026-12-01T25:00Z"]) {
      assert.isTrue(Option.isNone(parseInstant(bad)), bad)
    }
  })

  it("counts only structured filters that narrow, and words only when there are letters or digits", () => {
    assert.deepStrictEqual(usedStructuredFilters({ countries: [], minBudget: 0 }), ["minBudget"])
    assert.isFalse(hasWord("  & | "))
    assert.isTrue(hasWord("ճանապարհ"))
  })
})
