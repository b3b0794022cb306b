import { Layer } from "effect"
import type { TenderFacts } from "../FilterMatch.ts"
import { cpvPrefixesOf } from "../Filters.ts"
import type { TenderRecord } from "../Tender.ts"
import {
  cpvTerm,
  type DocumentTerms,
  type Field,
  noText,
  type QueryPlan,
  rankedFields,
  SearchText,
  tenderText
} from "../TextQuery.ts"

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/**
 * The fakes' text analysis: lower-cased words, no stemming, no concepts; a tender's CPV codes and their prefixes
 * as `cpv:` terms. The real analysis is `@tenders/search-text`.
 */
export const simpleDocumentTerms = (record: TenderRecord): DocumentTerms => {
  const terms = new Map<string, Field>()
  const text = tenderText(record)
  for (const field of rankedFields) for (const word of words(text[field])) if (!terms.has(word)) terms.set(word, field)
  const codes = [...record.cpvCodes, ...record.lots.flatMap((lot) => lot.cpvCodes)]
  for (const prefix of codes.flatMap(cpvPrefixesOf))
    if (!terms.has(cpvTerm(prefix))) terms.set(cpvTerm(prefix), "codes")
  return terms
}

/** Every word of the query is a clause that only that word matches. */
export const simpleQueryPlan = (q: string): QueryPlan => {
  const clauses = [...new Set(words(q))].map((word) => ({
    text: word,
    weight: 1,
    alternatives: [{ term: word, kind: "word" as const }]
  }))
  return clauses.length === 0 ? noText : { clauses, also: [], corrections: [] }
}

/** Every clause of a word of letters can be corrected; a correction replaces the word. */
const simpleCorrected = (plan: QueryPlan, corrections: ReadonlyMap<string, string>): QueryPlan => ({
  ...plan,
  clauses: plan.clauses.map((clause) => {
    const read = corrections.get(clause.text)
    return read === undefined
      ? clause
      : { text: clause.text, weight: 1, alternatives: [{ term: read, kind: "correction" as const }] }
  }),
  corrections: [
    ...plan.corrections,
    ...plan.clauses.flatMap((c) => {
      const read = corrections.get(c.text)
      return read === undefined ? [] : [[c.text, read] as const]
    })
  ]
})

/**
 * SearchText for the fakes and unit tests (see `simpleDocumentTerms`). Packs and source labels do not change what it
 * makes of text; the packs' digest is kept in its version, as the real analysis keeps it.
 */
export const SearchTextSimple = Layer.sync(SearchText, () => {
  let packs = ""
  let sourceLabels = 0
  return SearchText.of({
    queryPlan: simpleQueryPlan,
    prepare: () => {},
    documentTerms: simpleDocumentTerms,
    documentWords: (record) => {
      const text = tenderText(record)
      return [...new Set(words(`${text.title} ${text.lots} ${text.parties}`).filter((w) => /\p{L}/u.test(w)))]
    },
    correctable: (plan) =>
      plan.clauses.filter((c) => /\p{L}/u.test(c.text)).map((c) => ({ text: c.text, lookup: c.text, forms: [c.text] })),
    corrected: simpleCorrected,
    get version() {
      return packs === "" ? "simple" : `simple+${packs.slice(0, 8)}`
    },
    usePacks: (data) => {
      packs = data.digest
    },
    get packsDigest() {
      return packs
    },
    useSourceLabels: (labels) => {
      sourceLabels = labels.length
    },
    get sourceLabelCount() {
      return sourceLabels
    }
  })
})

const trigrams = (word: string): ReadonlySet<string> => {
  const padded = `  ${word} `
  const out = new Set<string>()
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3))
  return out
}

/** pg_trgm's `similarity` of two words: shared trigrams over all trigrams (the fakes' stand-in for the store's). */
export const trigramSimilarity = (a: string, b: string): number => {
  const x = trigrams(a)
  const y = trigrams(b)
  const shared = [...x].filter((t) => y.has(t)).length
  return shared / (x.size + y.size - shared)
}

/** A tender as the matcher sees it, with the given analysis. */
export const factsWith =
  (documentTerms: (record: TenderRecord) => DocumentTerms) =>
  (record: TenderRecord): TenderFacts => ({ record, lexemes: new Set(documentTerms(record).keys()) })

/** A UUID-shaped id for the n-th row of a fake (deterministic, valid for the UUID-branded ids). */
export const memoryUuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`
