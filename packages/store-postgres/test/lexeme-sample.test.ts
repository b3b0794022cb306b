import { describe, expect, it } from "vitest"
import { toLexemeSample } from "../src/LexemeSample.ts"

// How often words meet, counted in a sample of the open tenders' lexemes (LexemeSample.ts): a pure function of the
// sampled rows, checked on rows made here.

/** `n` sampled rows of a table of `tenders`, the i-th with the lexemes `of(i)` (null: a tender not open). */
const rows = (tenders: number, n: number, of: (i: number) => ReadonlyArray<string> | null) =>
  Array.from({ length: n }, (_, i) => ({ tenders, lexemes: of(i) }))

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
})
