import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { bestCorrection, editDistance, prefixDistance, typoBudget } from "../src/index.ts"

/** The textbook Damerau–Levenshtein (optimal string alignment) on code points, unbounded: the oracle. */
const oracle = (a: string, b: string): number => {
  const x = [...a]
  const y = [...b]
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      const row = d[i] ?? []
      const up = d[i - 1] ?? []
      row[j] = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        row[j] = Math.min(row[j] ?? 0, (d[i - 2]?.[j - 2] ?? 0) + 1)
    }
  return d[x.length]?.[y.length] ?? 0
}

const word = fc.string({ unit: fc.constantFrom(..."abcdeаоеруրոյա"), maxLength: 12 })

describe("spelling: what a word the index does not know is read as", () => {
  it("counts edits as Damerau–Levenshtein does, a transposition as one, and stops above the bound", () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        assert.strictEqual(editDistance(a, b, max), Math.min(oracle(a, b), max + 1))
        assert.strictEqual(editDistance(a, b, max), editDistance(b, a, max))
      }),
      { numRuns: 2000 }
    )
    assert.strictEqual(editDistance("infrastrcuture", "infrastructure", 2), 1)
    assert.strictEqual(editDistance("оборудавания", "оборудования", 2), 1)
    assert.strictEqual(editDistance("ремонтт", "ремонт", 2), 1)
  })

  it("counts the edits to the nearest beginning of a word as the distance to each beginning's least", () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const least = Math.min(
          ...Array.from({ length: [...b].length + 1 }, (_, n) => oracle(a, [...b].slice(0, n).join("")))
        )
        assert.strictEqual(prefixDistance(a, b, max), Math.min(least, max + 1))
      }),
      { numRuns: 2000 }
    )
    assert.strictEqual(prefixDistance("կահուք", "կահույքի", 1), 1)
    assert.strictEqual(editDistance("կահուք", "կահույքի", 1), 2)
  })

  it("allows no typo under 4 letters, 1 from 4 to 7, 2 from 8", () => {
    assert.deepStrictEqual(["abc", "abcd", "abcdefg", "abcdefgh", "ճանապարհ"].map(typoBudget), [0, 1, 1, 2, 2])
  })

  it("reads a word as the nearest candidate within its budget, then the most alike; none beyond it", () => {
    const candidates = [
      { word: "infrastructure", similarity: 0.5 },
      { word: "infrastructures", similarity: 0.6 }
    ]
    // Two letters swapped: one edit from the singular; the plural is one from its beginning, two from the whole.
    assert.strictEqual(bestCorrection("infrastrcuture", candidates), "infrastructure")
    assert.isUndefined(bestCorrection("road", []))
    // Under 4 letters, nothing is corrected; beyond the budget, nothing is.
    assert.isUndefined(bestCorrection("rod", [{ word: "road", similarity: 0.9 }]))
    assert.isUndefined(bestCorrection("roaq", [{ word: "qxxq", similarity: 0.9 }]))
    // Of equal edits, the more frequent, then the more alike.
    const roads = [
      { word: "road", similarity: 0.3, frequency: 10 },
      { word: "roam", similarity: 0.4, frequency: 2 }
    ]
    assert.strictEqual(bestCorrection("roaq", roads), "road")
    assert.strictEqual(
      bestCorrection(
        "roaq",
        roads.map(({ word, similarity }) => ({ word, similarity }))
      ),
      "roam"
    )
    // An inflected form of the word meant: within the budget of its beginning.
    assert.strictEqual(bestCorrection("կահուք", [{ word: "կահույքի", similarity: 0.3 }]), "կահույքի")
    assert.isUndefined(bestCorrection("կահուք", [{ word: "կառույցի", similarity: 0.3 }]))
  })
})
