import { assert, describe, it } from "@effect/vitest"
import { DateTime, Schema } from "effect"
import {
  type Filters,
  indexFilters,
  type Clause,
  type PreparedFilters,
  RatesTable,
  ratesInUseOf,
  type TenderFacts,
  toFilterQuery
} from "../src/index.ts"
import { isoFromNow, makeRecord, simpleDocumentTerms } from "../src/testing/index.ts"
import rates from "../src/data/reference-rates.json" with { type: "json" }

const table = ratesInUseOf(Schema.decodeUnknownSync(RatesTable)(rates), "the bundled table")
const now = DateTime.makeUnsafe(Date.now())
const prepare = (id: string, filters: Filters, clauses: ReadonlyArray<Clause> = []): PreparedFilters => ({
  id,
  query: toFilterQuery(filters, table, { clauses, also: [], corrections: [] })
})
// The given terms, and the `cpv:` terms of the record's codes (as every analysis gives them).
const facts = (overrides: Parameters<typeof makeRecord>[0], lexemes: ReadonlyArray<string>): TenderFacts => {
  const record = makeRecord(overrides)
  const codes = [...simpleDocumentTerms(record).keys()].filter((term) => term.startsWith("cpv:"))
  return { record, lexemes: new Set([...lexemes, ...codes]) }
}
const clause = (text: string, ...terms: ReadonlyArray<string>): Clause => ({
  text,
  weight: 1,
  alternatives: terms.map((term) => ({ term, kind: "word" as const }))
})
const road = [clause("road", "road")]

describe("filter matching (alerts and the in-memory store)", () => {
  const index = indexFilters([
    prepare("roads", { q: "roads" }, road),
    prepare("roads-de", { q: "road", countries: ["de"] }, road),
    prepare("hy", { q: "ճանապարհ" }, [clause("ճանապարհ", "ճանապարհ", "c:road")]),
    prepare("cpv45", { cpv: ["45000000-7"] }),
    prepare("big-eur", { minBudget: 1_000_000, budgetCurrency: "EUR" }),
    prepare("later", { q: "road", deadlineAfter: isoFromNow(30).slice(0, 10) }, road)
  ])
  const ids = (f: TenderFacts) =>
    index
      .matching(f, now)
      .map((w) => w.id)
      .toSorted()

  it("matches by term, any alternative of a clause, country, CPV prefix, converted budget and deadline", () => {
    assert.deepStrictEqual(
      ids(facts({ id: "ted-1-2026", country: "DE", cpvCodes: ["45233140"], budget: "100" }, ["road", "work"])),
      ["cpv45", "roads", "roads-de"]
    )
    const french = { id: "ted-2-2026", country: "FR", cpvCodes: [], budget: "2000000", currency: "EUR" }
    assert.deepStrictEqual(ids(facts(french, ["road"])), ["big-eur", "roads"])
    const armenian = { id: "gnumner-x", source: "gnumner" as const, country: "AM", cpvCodes: [], budget: "500000000" }
    assert.deepStrictEqual(ids(facts({ ...armenian, currency: "AMD" }, ["c:road"])), ["big-eur", "hy"])
    const late = { id: "ted-3-2026", cpvCodes: [], budget: null, deadline: isoFromNow(40) }
    assert.deepStrictEqual(ids(facts(late, ["road"])), ["later", "roads", "roads-de"])
  })

  it("never matches a tender that is not open", () => {
    assert.deepStrictEqual(ids(facts({ id: "ted-4-2026", status: "cancelled" }, ["road"])), [])
    assert.deepStrictEqual(ids(facts({ id: "ted-5-2026", deadline: isoFromNow(-1) }, ["road"])), [])
  })

  it("keeps a budget bound of 1e21 (no exponent is lost on the way to a decimal)", () => {
    const huge = indexFilters([prepare("huge", { q: "road", minBudget: 1e21 }, road)])
    const match = (budget: string) =>
      huge.matching(facts({ id: "ted-7-2026", budget, currency: "EUR" }, ["road"]), now).length
    assert.strictEqual(match("999999999999999999999"), 0)
    assert.strictEqual(match("1000000000000000000000"), 1)
  })

  it("checks a tender only against the filter sets filed under its words, of 10,000", () => {
    const many = indexFilters(
      Array.from({ length: 10_000 }, (_, i) => prepare(`w${i}`, { q: `word${i}` }, [clause(`word${i}`, `word${i}`)]))
    )
    const tender = facts({ id: "ted-6-2026" }, ["word42", "word4242", "other"])
    assert.strictEqual(many.candidates(tender).size, 2)
    assert.deepStrictEqual(
      many
        .matching(tender, now)
        .map((w) => w.id)
        .toSorted(),
      ["w42", "w4242"]
    )
  })
})
