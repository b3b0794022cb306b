import { DateTime, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { indexWatchlists, prepareWatchlist, RatesTable, type TenderFacts } from "../src/index.ts"
import { isoFromNow, makeRecord } from "../src/testing/index.ts"
import rates from "../src/data/reference-rates.json" with { type: "json" }

const table = Schema.decodeUnknownSync(RatesTable)(rates)
const now = DateTime.makeUnsafe(Date.now())
const facts = (overrides: Parameters<typeof makeRecord>[0], lexemes: ReadonlyArray<string>): TenderFacts => ({
  record: makeRecord(overrides),
  lexemes: new Set(lexemes)
})

describe("watchlist matching", () => {
  const watchlists = [
    prepareWatchlist("roads", { q: "roads" }, [{ exact: ["road"], prefix: [] }], table),
    prepareWatchlist("roads-de", { q: "road", countries: ["de"] }, [{ exact: ["road"], prefix: [] }], table),
    prepareWatchlist("hy", { q: "ճանապարհ" }, [{ exact: ["ճանապարհ"], prefix: ["ճանապարհ"] }], table),
    prepareWatchlist("cpv45", { cpv: ["45000000-7"] }, [], table),
    prepareWatchlist("big-eur", { minBudget: 1_000_000, budgetCurrency: "EUR" }, [], table),
    prepareWatchlist(
      "later",
      { q: "road", deadlineAfter: isoFromNow(30).slice(0, 10) },
      [{ exact: ["road"], prefix: [] }],
      table
    )
  ]
  const index = indexWatchlists(watchlists)
  const ids = (f: TenderFacts) =>
    index
      .matching(f, now)
      .map((w) => w.id)
      .toSorted()

  it("matches by lexeme, prefix, country, CPV prefix, converted budget and deadline, like search", () => {
    expect(
      ids(facts({ id: "ted-1-2026", country: "DE", cpvCodes: ["45233140"], budget: "100" }, ["road", "work"]))
    ).toEqual(["cpv45", "roads", "roads-de"])
    expect(
      ids(
        facts({ id: "ted-2-2026", country: "FR", cpvCodes: ["33100000"], budget: "2000000", currency: "EUR" }, ["road"])
      )
    ).toEqual(["big-eur", "roads"])
    expect(
      ids(
        facts(
          { id: "gnumner-x", source: "gnumner", country: "AM", cpvCodes: [], budget: "500000000", currency: "AMD" },
          ["ճանապարհների"]
        )
      )
    ).toEqual(["big-eur", "hy"])
    expect(ids(facts({ id: "ted-3-2026", cpvCodes: [], budget: null, deadline: isoFromNow(40) }, ["road"]))).toEqual([
      "later",
      "roads",
      "roads-de"
    ])
  })

  it("never matches a tender that is not open", () => {
    expect(ids(facts({ id: "ted-4-2026", status: "cancelled" }, ["road"]))).toEqual([])
    expect(ids(facts({ id: "ted-5-2026", deadline: isoFromNow(-1) }, ["road"]))).toEqual([])
  })

  it("checks 10,000 watchlists against a tender through the index, not one by one", () => {
    const many = indexWatchlists(
      Array.from({ length: 10_000 }, (_, i) =>
        prepareWatchlist(`w${i}`, { q: `word${i}` }, [{ exact: [`word${i}`], prefix: [] }], table)
      )
    )
    expect(
      many
        .matching(facts({ id: "ted-6-2026" }, ["word42", "word4242", "other"]), now)
        .map((w) => w.id)
        .toSorted()
    ).toEqual(["w42", "w4242"])
  })
})
