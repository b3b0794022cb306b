import { assert, describe, it } from "@effect/vitest"
import {
  type Clause,
  clauseRarity,
  type DocumentTerms,
  matchesWhole,
  type QueryPlan,
  rankOrder,
  relevance,
  weighClauses
} from "../src/index.ts"

const clause = (text: string, extra: Partial<Clause> = {}): Clause => ({
  text,
  weight: 1,
  alternatives: [{ term: text, kind: "word" }],
  ...extra
})
const plan = (...clauses: ReadonlyArray<Clause>): QueryPlan => ({ clauses, also: [], corrections: [] })
const terms = (entries: Record<string, "title" | "lots" | "parties" | "codes">): DocumentTerms =>
  new Map(Object.entries(entries))

describe("ranking: what a matched word is worth", () => {
  it("weighs a clause by its rarity, as BM25 weighs a term, and keeps the weights' sum", () => {
    assert.isAbove(clauseRarity(1, 1000), clauseRarity(500, 1000))
    assert.isBelow(clauseRarity(1000, 1000), 0.001)
    const query = plan(clause("macroom"), clause("road"))
    const counts: Record<string, number> = { macroom: 2, road: 600 }
    const weighed = weighClauses(query, (c) => counts[c.text] ?? 0, 1000)
    const [rare, common] = weighed.clauses
    assert.isAbove(rare?.weight ?? 0, 5 * (common?.weight ?? 0))
    assert.closeTo((rare?.weight ?? 0) + (common?.weight ?? 0), 2, 1e-9)
    // The tender with the rare word outranks the one with the common word.
    const macroom = terms({ macroom: "title" })
    const road = terms({ road: "title" })
    assert.isAbove(relevance(weighed, macroom), relevance(weighed, road))
    assert.strictEqual(relevance(query, macroom), relevance(query, road))
    // A generic word keeps its low weight, times its rarity; unknown counts leave the plan as it is.
    const generic = weighClauses(plan(clause("supply", { weight: 0.3, generic: true }), clause("road")), () => 10, 1000)
    assert.isBelow(generic.clauses[0]?.weight ?? 1, generic.clauses[1]?.weight ?? 0)
    assert.strictEqual(
      weighClauses(query, () => Infinity, 1000),
      query
    )
    assert.strictEqual(weighClauses(plan(clause("road")), () => 1, 1000).clauses[0]?.weight, 1)
  })

  it("ranks the tenders having everything the query is about first, generic words and guessed codes aside", () => {
    const roadRepair = plan(
      clause("road", {
        alternatives: [
          { term: "road", kind: "word" },
          { term: "named:cpv:452", kind: "named" }
        ]
      }),
      clause("repair"),
      clause("supply", { weight: 0.3, generic: true })
    )
    // Both words, though only among its codes, and without "supply".
    const whole = terms({ road: "codes", repair: "codes" })
    // One word in the title.
    const part = terms({ repair: "title", supply: "title" })
    // "road" only by a code its words were found to name.
    const guessed = terms({ "named:cpv:452": "codes", repair: "title" })
    assert.isTrue(matchesWhole(roadRepair.clauses, whole))
    assert.isFalse(matchesWhole(roadRepair.clauses, part))
    assert.isFalse(matchesWhole(roadRepair.clauses, guessed))
    assert.isAbove(relevance(roadRepair, part), relevance(roadRepair, whole))
    const ranked = [
      { id: "part", terms: part },
      { id: "guessed", terms: guessed },
      { id: "whole", terms: whole }
    ]
      .map((t) => ({
        id: t.id,
        whole: matchesWhole(roadRepair.clauses, t.terms),
        score: relevance(roadRepair, t.terms)
      }))
      .toSorted(rankOrder((a, b) => (a.id < b.id ? -1 : 1)))
    assert.deepStrictEqual(
      ranked.map((t) => t.id),
      ["whole", "part", "guessed"]
    )
  })
})
