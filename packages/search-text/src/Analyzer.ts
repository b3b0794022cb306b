// The analysis: a tender's terms and a query's plan from one lexicon, each made by its own part (DocumentTerms.ts,
// QueryPlan.ts, Spelling.ts) over the same reading of words (WordTerms.ts, Compounds.ts), so the two sides of the
// search read a word alike.

import type { DocumentTerms, QueryPlan, SpellingQuestion, TenderRecord } from "@tenders/core"
import { compoundSplitter } from "./Compounds.ts"
import { documentTermsOf } from "./DocumentTerms.ts"
import type { LabelMatch } from "./Labels.ts"
import type { Lexicon } from "./Lexicon.ts"
import { queryPlanOf } from "./QueryPlan.ts"
import { correctable, corrected, documentWords } from "./Spelling.ts"
import { wordTermsOf } from "./WordTerms.ts"

/** The analysis of tenders and queries (`makeAnalyzer`). */
export interface Analyzer {
  readonly documentTerms: (record: TenderRecord) => DocumentTerms
  readonly queryPlan: (q: string) => QueryPlan
  readonly documentWords: (record: TenderRecord) => ReadonlyArray<string>
  readonly correctable: (plan: QueryPlan) => ReadonlyArray<SpellingQuestion>
  readonly corrected: (plan: QueryPlan, corrections: ReadonlyMap<string, string>) => QueryPlan
}

/**
 * The analysis by a lexicon and the stop words (`sourceLabels`: the labels sources publish beside their codes,
 * `sourceLabelIndex`, by content stem; the query side's only).
 */
export const makeAnalyzer = (
  lexicon: Lexicon,
  stopWords: ReadonlySet<string>,
  sourceLabels: () => ReadonlyMap<string, ReadonlyArray<LabelMatch>> = () => new Map()
): Analyzer => {
  const compoundParts = compoundSplitter(lexicon)
  const queryPlan = queryPlanOf(lexicon, stopWords, compoundParts, sourceLabels)
  return {
    documentTerms: documentTermsOf(lexicon, wordTermsOf(compoundParts)),
    queryPlan,
    documentWords: (record) => documentWords(record, stopWords),
    correctable,
    corrected: (plan, corrections) => corrected(plan, corrections, queryPlan)
  }
}
