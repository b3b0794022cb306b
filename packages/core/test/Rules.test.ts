import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import {
  boundsPerCurrency,
  type CurrencyBound,
  decimalFromNumber,
  formatDecimal,
  healthReport,
  searchHint,
  toFullTender,
  type RatesTable
} from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"

const now = DateTime.makeUnsafe("2026-11-21T12:00:00Z")
const hour = Duration.hours(1)
const intervals = { ted: hour, gnumner: hour, eaeu: hour }
const at = (iso: string) => DateTime.makeUnsafe(iso)

describe("rules", () => {
  it("reports never / ok / error / stalled per source and degraded unless all are ok", () => {
    const report = healthReport(
      [
        { code: "ted", lastSuccessAt: at("2026-11-21T11:30:00Z"), lastFailureAt: null, runningSince: null },
        {
          code: "gnumner",
          lastSuccessAt: at("2026-11-21T11:00:00Z"),
          lastFailureAt: at("2026-11-21T11:50:00Z"),
          runningSince: null
        }
      ],
      intervals,
      now
    )
    assert.deepStrictEqual(
      report.sources.map((s) => s.status),
      ["ok", "error", "never"]
    )
    assert.strictEqual(report.status, "degraded")
    const stalled = healthReport(
      [{ code: "ted", lastSuccessAt: at("2026-11-21T08:00:00Z"), lastFailureAt: null, runningSince: null }],
      intervals,
      now
    )
    assert.strictEqual(stalled.sources[0]?.status, "stalled")
    const allOk = healthReport(
      ["ted", "gnumner", "eaeu"].map((code) => ({
        code: code as "ted",
        lastSuccessAt: at("2026-11-21T11:59:00Z"),
        lastFailureAt: null,
        runningSince: null
      })),
      intervals,
      now
    )
    assert.strictEqual(allOk.status, "ok")
  })

  it("omits codes, lots and documents on Free and shows them on paid plans; okpd2Codes only for eaeu", () => {
    const record = {
      ...makeRecord({ id: "ted-1-2026", lots: [{ title: "Lot A", budget: "1", currency: "EUR", cpvCodes: [] }] }),
      updatedAt: "2026-11-21T00:00:00Z"
    }
    const free = toFullTender(record, "free", now)
    assert.deepStrictEqual(Object.keys(free).toSorted(), [
      "budget",
      "buyer",
      "country",
      "currency",
      "deadline",
      "hint",
      "id",
      "lotsCount",
      "publishedAt",
      "region",
      "source",
      "status",
      "subject",
      "title",
      "updatedAt",
      "url"
    ])
    const pro = toFullTender(record, "pro", now)
    assert.deepStrictEqual(pro.lots?.length, 1)
    assert.notProperty(pro, "okpd2Codes")
    assert.notProperty(pro, "hint")
    const eaeu = toFullTender({ ...record, source: "eaeu" }, "business", now)
    assert.deepStrictEqual(eaeu.okpd2Codes, [])
  })

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
    const bounds = boundsPerCurrency(table, "PLN", decimalFromNumber(100), decimalFromNumber(1000))
    assert.deepStrictEqual(text(bounds.find((b) => b.currency === "EUR")), { currency: "EUR", min: "25", max: "250" })
    assert.deepStrictEqual(text(bounds.find((b) => b.currency === "AMD")), { currency: "AMD", min: "75", max: "750" })
    const third = boundsPerCurrency(table, "AMD", decimalFromNumber(1), null).find((b) => b.currency === "EUR")
    assert.deepStrictEqual(text(third), { currency: "EUR", min: "0.333333", max: null })
  })

  it("hints how to broaden a search and which rates converted budgets", () => {
    const hint = searchHint({
      found: 0,
      approximate: false,
      limit: 10,
      textUsed: true,
      filtersUsed: ["cpv", "maxBudget"],
      budgetCurrency: "EUR",
      ratesQuarter: "2026-Q4"
    })
    assert.include(hint, "No open tenders match")
    assert.include(hint, "`cpv`")
    assert.include(hint, "raise `maxBudget`")
    assert.include(hint, "converted to EUR at reference rates of 2026-Q4")
    assert.isUndefined(
      searchHint({
        found: 10,
        approximate: false,
        limit: 10,
        textUsed: true,
        filtersUsed: [],
        budgetCurrency: undefined,
        ratesQuarter: "x"
      })
    )
  })
})
