import type { FilterFacts } from "@tenders/core"
import { BigDecimal } from "effect"
import { describe, expect, it } from "vitest"
import { fullCollection } from "../../core/test/collect.ts"
import { toLexemeSample } from "../src/LexemeSample.ts"

// How often words meet, counted in a sample of the open tenders' lexemes (LexemeSample.ts): a pure function of the
// sampled rows, checked on rows made here.

/** `n` sampled rows of a table of `tenders`, the i-th with the lexemes `of(i)` (null: a tender not open). */
const rows = (
  tenders: number,
  n: number,
  of: (i: number) => ReadonlyArray<string> | null,
  country: (i: number) => string = () => "DE"
) =>
  Array.from({ length: n }, (_, i) => ({
    tenders,
    lexemes: of(i),
    country: country(i),
    currency: "EUR",
    budget: String(1000 * i),
    deadline: null,
    cpvPrefixes: ["452"]
  }))

describe("a sample of the open tenders' lexemes", () => {
  // 1,000 rows sampled from 1M tenders: every 4th not open; of the open ones, every 5th has "school" and "building"
  // together, every 10th "school" alone.
  const sample = toLexemeSample(
    rows(1_000_000, 1_000, (i) =>
      i % 4 === 3 ? null : i % 5 === 0 ? ["Aschool", "Abuilding"] : i % 10 === 1 ? ["Aschool"] : ["Aservic"]
    )
  )

  it("counts the tenders having one lexeme of each set, scaled to the table", () => {
    // Open rows with i % 5 === 0: 150 of the 1,000 sampled (50 of the 200 are not open), so 150,000 of 1M; with
    // "school" alone, 50 more (i % 10 === 1, open).
    expect(sample.matchesOfEvery([["Aschool"], ["Abuilding", "Abuild"]])?.matches).toBe(150_000)
    expect(sample.matchesOfEvery([["Aschool", "Aschol"]])?.matches).toBe(200_000)
    const counted = sample.matchesOfEvery([["Aschool"], ["Abuilding"]])!
    expect(counted.least).toBeLessThan(counted.matches)
    expect(counted.least).toBeGreaterThan(counted.matches / 2)
  })

  it("says nothing of a condition it met too seldom, or of an empty sample", () => {
    expect(sample.matchesOfEvery([["Aschool"], ["Abathyscaph"]])).toBeUndefined()
    expect(toLexemeSample([]).matchesOfEvery([["Aschool"]])).toBeUndefined()
  })

  it("knows a lexeme some sampled open tender has, and not those only closed tenders have", () => {
    expect(sample.hasAny(["Bschool", "Aschool"])).toBe(true)
    expect(toLexemeSample(rows(10, 1, () => null)).hasAny(["Aschool"])).toBe(false)
    expect(sample.hasAny(["Abathyscaph"])).toBe(false)
  })

  it("counts the share of a text's tenders some filters keep, from a prior, when it met enough of them", () => {
    // 1,000 open rows: "road" in every 10th (100), those of them in Russia every 20th (50); "services" in the rest
    // (900), of which one in a hundred (10) in Russia. The count starts from the prior, weighed as 16 tenders.
    const sampled = toLexemeSample(
      rows(
        1_000_000,
        1_000,
        (i) => (i % 10 === 0 ? ["Aдорог"] : ["Aservic"]),
        (i) => (i % 20 === 0 || i % 100 === 1 ? "RU" : "DE")
      )
    )
    const inRussia = (facts: FilterFacts) => facts.country === "RU"
    expect(sampled.keptShare([["Aдорог"]], inRussia, 0.5)).toBe(0.5)
    expect(sampled.keptShare([["Aдорог"]], inRussia, 0.1)).toBe((50 + 1.6) / 116)
    expect(sampled.keptShare([["Aservic"]], inRussia, 0.01)).toBe((10 + 0.16) / 916)
    // None kept: the prior's weight alone.
    expect(sampled.keptShare([["Aдорог"]], () => false, 0.2)).toBe(3.2 / 116)
    // A budget filter reads the sampled budget as a decimal: 1,000 × i, so those of at least 500,000 are i >= 500.
    const budgetOf = (facts: FilterFacts) => (facts.budget === null ? 0 : Number(BigDecimal.format(facts.budget)))
    expect(sampled.keptShare([["Aдорог", "Aservic"]], (facts) => budgetOf(facts) >= 500_000, 0.5)).toBe(0.5)
    // Among the tenders having one lexeme of each set: "road" with the every-20th lexeme "ремонт", all in Russia.
    const repairs = toLexemeSample(
      rows(
        1_000_000,
        1_000,
        (i) => (i % 20 === 0 ? ["Aдорог", "Aремонт"] : i % 10 === 0 ? ["Aдорог"] : ["Aservic"]),
        (i) => (i % 20 === 0 ? "RU" : "DE")
      )
    )
    expect(repairs.keptShare([["Aдорог"], ["Aремонт"]], inRussia, 1)).toBe(1)
    expect(repairs.keptShare([["Aдорог"]], inRussia, 0.5)).toBe(0.5)
    // Met too seldom: nothing said.
    expect(sampled.keptShare([["Abathyscaph"]], inRussia, 0.5)).toBeUndefined()
  })

  it("keeps the distinct lexemes it counts, not each sampled row's list of them", async () => {
    // A sample of 100 rows, each a list of the same two lexemes; only WeakRefs to the lists are kept here.
    const lists: Array<WeakRef<ReadonlyArray<string>>> = []
    const sample = toLexemeSample(
      rows(1_000, 100, () => {
        const list = ["Aschool", "Abuilding"]
        lists.push(new WeakRef(list))
        return list
      })
    )
    await fullCollection()
    expect(lists.filter((list) => list.deref() !== undefined)).toHaveLength(0)
    expect(sample.matchesOfEvery([["Aschool"], ["Abuilding"]])?.matches).toBe(1_000)
  })
})
