import { assert, describe, it } from "@effect/vitest"
import {
  boundsPerCurrency,
  type CurrencyBound,
  decimalFromNumber,
  formatDecimal,
  ratesInUseOf,
  type RatesTable
} from "../src/index.ts"

describe("reference rates", () => {
  it("re-expresses a budget range per currency at the reference rates, rounding outward", () => {
    const table: RatesTable = {
      quarter: "2026-Q4",
      base: "EUR",
      rates: Object.fromEntries(
        ["EUR", "USD", "GBP", "CHF", "NOK", "ISK", "SEK", "DKK", "PLN", "CZK", "HUF", "RON", "BGN", "AMD", "RUB"].map(
          (c) => [
            c,
            { perEur: c === "PLN" ? "4" : c === "AMD" ? "3" : "1", date: "2026-10-01", source: "test", official: false }
          ]
        )
      ) as RatesTable["rates"]
    }
    const text = (bound: CurrencyBound | undefined) =>
      bound && {
        currency: bound.currency,
        min: bound.min && formatDecimal(bound.min),
        max: bound.max && formatDecimal(bound.max)
      }
    const bounds = boundsPerCurrency(
      ratesInUseOf(table, "test"),
      "PLN",
      decimalFromNumber(100),
      decimalFromNumber(1000)
    )
    assert.deepStrictEqual(text(bounds.find((b) => b.currency === "EUR")), { currency: "EUR", min: "25", max: "250" })
    assert.deepStrictEqual(text(bounds.find((b) => b.currency === "AMD")), { currency: "AMD", min: "75", max: "750" })
    const third = boundsPerCurrency(ratesInUseOf(table, "test"), "AMD", decimalFromNumber(1), null).find(
      (b) => b.currency === "EUR"
    )
    assert.deepStrictEqual(text(third), { currency: "EUR", min: "0.333333", max: null })
  })
})
