import { assert, describe, it } from "@effect/vitest"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { decimalFromNumber, formatDecimal, parseDecimal } from "../src/index.ts"

const pattern = /^-?\d+(\.\d+)?$/u

describe("money", () => {
  it("formats every BigDecimal as a plain decimal string that parses back to the same value", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: -20, max: 20 }),
        (value, scale) => {
          const n = BigDecimal.make(value, scale)
          const text = formatDecimal(n)
          assert.match(text, pattern)
          const back = parseDecimal(text)
          assert.isTrue(back._tag === "Some" && BigDecimal.equals(back.value, n))
        }
      )
    )
  })

  it("never writes an exponent, where BigDecimal.format would", () => {
    assert.strictEqual(formatDecimal(BigDecimal.fromStringUnsafe("1e16")), "10000000000000000")
    assert.strictEqual(formatDecimal(BigDecimal.make(5n, 9)), "0.000000005")
    assert.strictEqual(formatDecimal(decimalFromNumber(1e21)), "1000000000000000000000")
    assert.strictEqual(formatDecimal(decimalFromNumber(1.5e-7)), "0.00000015")
    assert.strictEqual(formatDecimal(decimalFromNumber(0.1)), "0.1")
  })

  it("parses only plain decimals", () => {
    for (const bad of ["1e5", "1,5", " 1", "+1", "1.", ".5", ""]) assert.isTrue(parseDecimal(bad)._tag === "None", bad)
  })
})
