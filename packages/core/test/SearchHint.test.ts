import { assert, describe, it } from "@effect/vitest"
import { searchHint } from "../src/index.ts"

describe("search hints", () => {
  it("hints how to broaden a search and which rates converted budgets", () => {
    const hint = searchHint({
      found: 0,
      approximate: false,
      limit: 10,
      textUsed: true,
      filtersUsed: ["cpv", "maxBudget"],
      budgetCurrency: "EUR",
      ratesQuarter: "2026-Q4",
      also: [],
      corrections: []
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
        ratesQuarter: "x",
        also: [],
        corrections: []
      })
    )
  })
})
