import { assert, describe, it } from "@effect/vitest"
import { labelConceptsOf } from "../src/LabelConcepts.ts"
import { boundedMemo } from "../src/Memo.ts"
import { cpvSpannedByLevel } from "../src/Okpd2.ts"
import { indexPhrases } from "../src/Phrases.ts"
import { stemmerFor } from "../src/Stemming.ts"

// Each part of the analysis on data made for it (the whole analysis is tested in Analyzer.test.ts).

describe("the parts of the analysis", () => {
  it("keeps a memoised value asked again while others come, and drops one not asked since two generations", () => {
    const memo = boundedMemo<number>(4)
    const computed: Array<string> = []
    const length = (word: string) => memo(word, () => computed.push(word) && word.length)
    assert.deepStrictEqual([length("road"), length("road"), length("roof")], [4, 4, 4])
    length("school") // the newer generation (half the bound) was full: road and roof are now the older
    length("road") // found in the older, moved to the newer
    length("pit") // full again: roof, not asked since, goes
    length("road")
    length("roof")
    assert.deepStrictEqual(computed, ["road", "roof", "school", "pit", "roof"])
  })

  it("reads a word by its language's stemmer in Latin script, and by its script's in Cyrillic and Armenian", () => {
    assert.strictEqual(stemmerFor("latin", "de"), "de")
    assert.strictEqual(stemmerFor("latin", "sk"), undefined)
    assert.strictEqual(stemmerFor("cyrillic", "bg"), "ru")
    assert.strictEqual(stemmerFor("armenian"), "hy")
    assert.strictEqual(stemmerFor("greek", "el"), undefined)
  })

  it("spans an OKPD2 level by the broadest CPV prefixes linked to a code at or under it", () => {
    const spanned = cpvSpannedByLevel(
      new Map([
        ["45", ["43.9"]],
        ["4526", ["43.91"]],
        ["09134", ["19.20.21"]]
      ])
    )
    assert.deepStrictEqual(spanned.get("43.9"), ["45"])
    assert.deepStrictEqual(spanned.get("43.91"), ["4526"])
    assert.deepStrictEqual(spanned.get("19.20"), ["09134"])
    assert.isUndefined(spanned.get("42"))
  })

  it("reads in a label the concepts of its language's phrases, and whether they cover its every word", () => {
    const en = indexPhrases([
      { stems: ["roof"], concept: "c:roof", languages: ["en"] },
      { stems: ["repair"], concept: "c:repair", languages: ["en"] },
      { stems: ["work"], concept: "c:works", languages: ["en"] }
    ])
    const ru = indexPhrases([{ stems: ["кровл"], concept: "c:roof", languages: ["ru"] }])
    const concepts = labelConceptsOf(
      { en, ru, generic: new Set(["c:works"]) },
      {
        cpvEnglish: [
          { code: "45261910", label: "Roof repair" },
          { code: "45261210", label: "Roof-covering work" }
        ],
        okpd2Labels: new Map([["43.91.19.110", "Работы по устройству кровли"]])
      },
      new Set(["of"])
    )
    assert.deepStrictEqual(concepts.ofCpv.get("4526191"), ["c:roof", "c:repair"])
    assert.deepStrictEqual(concepts.ofCpv.get("4526121"), ["c:roof"])
    assert.deepStrictEqual(concepts.conceptLabels.get("c:repair"), [
      { code: "45261910", concepts: ["c:repair", "c:roof"] }
    ])
    assert.isUndefined(concepts.conceptLabels.get("c:roof"))
    assert.deepStrictEqual(concepts.ofOkpd2("43.91.19.110"), ["c:roof"])
    assert.deepStrictEqual(concepts.ofOkpd2("43.91"), [])
  })
})
