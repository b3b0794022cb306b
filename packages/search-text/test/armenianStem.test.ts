import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { armenianStem, armenianSuffixes } from "../src/Armenian.ts"

const endings = armenianSuffixes

const letters = (text: string): number => [...text].length
const leavesThree = (word: string, ending: string): boolean =>
  word.endsWith(ending) && letters(word) - letters(ending) >= 3
const isEnding = (tail: string): boolean => endings.includes(tail)
/** What the stemmer took off a word: after a stem in -ա that lost its յ, the endings after the յ. */
const strippedOf = (w: string, stem: string): string =>
  stem.endsWith("ա") && w.startsWith(`${stem}յ`) && stem !== w ? w.slice(stem.length + 1) : w.slice(stem.length)

/** Lower-case Armenian words (NFKC, as the analyzer hands them over), often stacked endings; and any text. */
const word = fc.oneof(
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0x561, max: 0x586 }).map((c) => String.fromCodePoint(c)) },
        { weight: 2, arbitrary: fc.constantFrom(...endings) }
      ),
      { maxLength: 10 }
    )
    .map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 12 })
)

describe("armenianStem", () => {
  it("keeps the word, or a prefix of it of at least three letters", () => {
    fc.assert(
      fc.property(word, (w) => {
        const stem = armenianStem(w)
        assert.isTrue(w.startsWith(stem), `${w} -> ${stem}`)
        if (stem !== w) assert.isAtLeast(letters(stem), 3, `${w} -> ${stem}`)
      }),
      { numRuns: 1000 }
    )
  })

  it("strips one or two of the endings, nothing else", () => {
    fc.assert(
      fc.property(word, (w) => {
        const tail = strippedOf(w, armenianStem(w))
        const split = Array.from({ length: tail.length }, (_, i) => i).some(
          (i) => isEnding(tail.slice(0, i)) && isEnding(tail.slice(i))
        )
        assert.isTrue(tail === "" || isEnding(tail) || split, `${w}: ${tail}`)
      }),
      { numRuns: 1000 }
    )
  })

  it("strips first the longest ending that leaves three letters, and keeps a word that has none", () => {
    fc.assert(
      fc.property(word, (w) => {
        const stem = armenianStem(w)
        const first = endings.filter((e) => leavesThree(w, e)).toSorted((a, b) => b.length - a.length)[0]
        if (first === undefined) assert.strictEqual(stem, w)
        else {
          const kept = w.slice(0, w.length - first.length)
          assert.isTrue(kept.startsWith(stem) || `${kept}`.startsWith(`${stem}յ`), `${w} -> ${stem}, not ${first}`)
        }
      }),
      { numRuns: 1000 }
    )
  })

  // Not idempotent in general: two endings a pass, so a third stays (a stem of a stem may strip it).
  it("stems no further a stem that lost one ending or none", () => {
    fc.assert(
      fc.property(word, (w) => {
        const stem = armenianStem(w)
        if (stem === w || isEnding(strippedOf(w, stem))) assert.strictEqual(armenianStem(stem), stem, w)
      }),
      { numRuns: 1000 }
    )
    assert.strictEqual(armenianStem("տանիքիիի"), "տանիքի")
    // A noun in -ա: its case forms meet its own stem.
    for (const form of ["տեխնիկա", "տեխնիկայի", "տեխնիկայից", "տեխնիկայով", "տեխնիկայում"]) {
      assert.strictEqual(armenianStem(form), "տեխնիկա", form)
    }
  })
})
