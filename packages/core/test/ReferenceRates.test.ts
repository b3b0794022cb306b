import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import {
  boundsPerCurrency,
  decimalFromNumber,
  formatDecimal,
  nationalPerEur,
  nextQuarter,
  publicationOfQuarter,
  quarterFigures,
  quarterFirstDay,
  quarterOf,
  type RatePublication,
  type RatesInUse,
  ratesSentence,
  searchHint
} from "../src/index.ts"

const ecb = (publishedOn: string, usd: string): RatePublication => ({
  publisher: "ECB",
  publishedOn,
  perEur: [{ currency: "USD", perEur: usd }]
})

describe("reference rates of a quarter", () => {
  it("names quarters by their days and steps to the next", () => {
    assert.strictEqual(quarterOf("2026-10-01"), "2026-Q4")
    assert.strictEqual(quarterOf("2026-03-31"), "2026-Q1")
    assert.strictEqual(quarterFirstDay("2026-Q3"), "2026-07-01")
    assert.strictEqual(nextQuarter("2026-Q4"), "2027-Q1")
    assert.strictEqual(nextQuarter("2026-Q2"), "2026-Q3")
  })

  it("takes the publication of the quarter's first business day: the first on or after its first day", () => {
    const days = [ecb("2026-12-31", "1.1"), ecb("2027-01-05", "1.3"), ecb("2027-01-02", "1.2")]
    const chosen = publicationOfQuarter(days, "2027-Q1")
    assert.strictEqual(Option.getOrThrow(chosen).publishedOn, "2027-01-02")
    assert.isTrue(Option.isNone(publicationOfQuarter([ecb("2026-12-31", "1.1")], "2027-Q1")))
    assert.isTrue(Option.isNone(publicationOfQuarter([ecb("2027-04-01", "1.1")], "2027-Q1")))
  })

  it("converts a national bank's EUR quote to units per EUR exactly, or not at all", () => {
    assert.deepStrictEqual(nationalPerEur("127.2343", "1"), Option.some("127.2343"))
    assert.deepStrictEqual(nationalPerEur("9045.5", "10"), Option.some("904.55"))
    assert.isTrue(Option.isNone(nationalPerEur("10", "3")))
    assert.isTrue(Option.isNone(nationalPerEur("0", "1")))
    assert.isTrue(Option.isNone(nationalPerEur("12,5", "1")))
  })

  it("adds the fixed figures (EUR, BGN) to the publishers' and keeps each figure's provenance", () => {
    const figures = quarterFigures(
      "2027-Q1",
      [
        ecb("2027-01-04", "1.0389"),
        { publisher: "CBR", publishedOn: "2027-01-01", perEur: [{ currency: "RUB", perEur: "104.5" }] }
      ],
      { ECB: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml" },
      "2027-01-04T16:00:00.000Z"
    )
    const usd = figures.find((f) => f.currency === "USD")
    assert.strictEqual(usd?.publisher, "European Central Bank")
    assert.strictEqual(usd?.origin, "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml")
    assert.strictEqual(usd?.publishedOn, "2027-01-04")
    assert.strictEqual(figures.find((f) => f.currency === "RUB")?.publisher, "Bank of Russia")
    assert.strictEqual(figures.find((f) => f.currency === "BGN")?.perEur, "1.95583")
    assert.strictEqual(figures.find((f) => f.currency === "EUR")?.perEur, "1")
  })
})

const inUse = (figures: RatesInUse["figures"], fallback: string | null = null): RatesInUse => ({
  quarter: "2027-Q1",
  fallback,
  figures
})
const figure = (currency: "EUR" | "USD" | "AMD", perEur: string, publishedOn: string, publisher: string) => ({
  currency,
  perEur,
  publisher,
  publishedOn,
  origin: "test",
  fetchedAt: null,
  official: true
})

describe("rates in use", () => {
  it("skips a currency without a figure instead of leaving its budgets unbounded", () => {
    const rates = inUse([figure("EUR", "1", "2027-01-01", "fixed"), figure("USD", "2", "2027-01-04", "ECB")])
    const bounds = boundsPerCurrency(rates, "EUR", decimalFromNumber(10), null)
    assert.deepStrictEqual(
      bounds.map((b) => [b.currency, b.min && formatDecimal(b.min)]),
      [
        ["EUR", "10"],
        ["USD", "20"]
      ]
    )
    assert.deepStrictEqual(boundsPerCurrency(rates, "AMD", decimalFromNumber(10), null), [])
  })

  it("hints the quarter and the publishers, and says which currencies are missing or stale", () => {
    const rates = inUse([
      figure(
        "EUR",
        "1",
        "2027-01-01",
        "Fixed: base currency, and BGN's irrevocable conversion rate (Council of the EU)"
      ),
      figure("USD", "1.04", "2027-01-04", "European Central Bank"),
      figure("AMD", "410", "2026-10-01", "Central Bank of Armenia")
    ])
    const sentence = ratesSentence(rates, "Budgets converted to EUR")
    assert.include(
      sentence,
      "Budgets converted to EUR at reference rates of 2027-Q1 (European Central Bank, Central Bank of Armenia)"
    )
    assert.include(sentence, "No reference rate for GBP")
    assert.include(sentence, "RUB: budgets in them are skipped")
    assert.include(sentence, "Older than 2027-Q1: AMD (2026-10-01)")
    assert.notInclude(sentence, "EUR (")
    const fallback = ratesSentence(inUse(rates.figures, "the bundled table"), "Budgets converted to EUR")
    assert.include(fallback, "(the bundled table, a fallback: no rates imported)")
  })

  it("keeps the spec's hint wording when a search converts budgets", () => {
    const hint = searchHint({
      found: 0,
      approximate: false,
      limit: 10,
      textUsed: false,
      filtersUsed: ["budgetCurrency"],
      budgetCurrency: "EUR",
      ratesQuarter: "2027-Q1",
      rates: inUse([figure("USD", "1.04", "2027-01-04", "European Central Bank")]),
      also: [],
      corrections: []
    })
    assert.include(hint, "converted to EUR at reference rates of 2027-Q1 (European Central Bank)")
  })
})
