import { describe, expect, it } from "vitest"
import { matchesEverything } from "../src/index.ts"

describe("watchlist rules", () => {
  it("calls a filter set that narrows nothing 'matches everything'", () => {
    expect(matchesEverything({})).toBe(true)
    expect(matchesEverything({ q: "  &|  ", countries: [] })).toBe(true)
    expect(matchesEverything({ q: "ճանապարհ" })).toBe(false)
    expect(matchesEverything({ minBudget: 0 })).toBe(false)
  })
})
