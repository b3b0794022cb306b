// The concepts the classification labels name: the glossary's phrases read in each CPV code's English label and in
// each OKPD2 code's Russian one. A notice filed under a code has its label's concepts (a query for the concept in any
// language finds a notice that names only its product), and a subject having every concept of a label made of
// concepts only names that label's code (CodeTerms.ts).

import { normalizeCpvPrefix } from "@tenders/core"
import { labelScope } from "./Labels.ts"
import { wordsOf } from "./Normalize.ts"
import { findPhrases, type PhraseIndex } from "./Phrases.ts"
import { formsOf } from "./Stemming.ts"

/** A CPV code whose label is made of glossary concepts only, with those concepts (sorted). */
export interface ConceptLabel {
  readonly code: string
  readonly concepts: ReadonlyArray<string>
}

/** What the classification labels name, read from their words (`labelConceptsOf`). */
export interface LabelConcepts {
  /**
   * The codes whose label is made of glossary concepts only, apart from stop words and generic words ("Repair of
   * roofs": repair, roof; "Snow-clearing services": snow removal), by their first concept: a tender whose title or
   * lots have every concept of such a label names its code, whatever it is classified under.
   */
  readonly conceptLabels: ReadonlyMap<string, ReadonlyArray<ConceptLabel>>
  /**
   * The concepts a CPV code's label names (groups and finer: a division's label lists several fields), by the code's
   * significant prefix: a tender filed under the code has them too, as low as its codes count ("Pharmaceutical
   * products": medicines).
   */
  readonly ofCpv: ReadonlyMap<string, ReadonlyArray<string>>
  /**
   * The concepts an OKPD2 code's Russian label names, as `ofCpv` for CPV ("Устройства периферийные с двумя или более
   * функциями: печать данных, копирование, сканирование": printing); read when first asked for.
   */
  readonly ofOkpd2: (code: string) => ReadonlyArray<string>
}

/**
 * The concepts the labels name, by the concepts' English phrases for the CPV's English labels and their Russian
 * phrases for OKPD2's labels: another language's homonym would mislead (the Finnish "tie", road, is the English
 * "ties").
 */
export const labelConceptsOf = (
  phrases: { readonly en: PhraseIndex; readonly ru: PhraseIndex; readonly generic: ReadonlySet<string> },
  labels: {
    readonly cpvEnglish: ReadonlyArray<{ readonly code: string; readonly label: string }>
    readonly okpd2Labels: ReadonlyMap<string, string>
  },
  stopWords: ReadonlySet<string>
): LabelConcepts => {
  // The concepts a label names (read up to its exception, without stop words), and whether they cover its every word.
  const conceptsOfLabel = (language: "en" | "ru", label: string) => {
    const words = wordsOf(labelScope(language, label)).filter((word) => !stopWords.has(word.text))
    const found = findPhrases(
      phrases[language],
      words.map((word) => new Set(formsOf(word, language === "en" ? ["en"] : [])))
    )
    return {
      concepts: [...new Set(found.map(({ concept }) => concept).filter((c) => !phrases.generic.has(c)))],
      covered: words.every((_, i) => found.some(({ from, to }) => from <= i && i <= to))
    }
  }
  const conceptLabels = new Map<string, Array<ConceptLabel>>()
  const ofCpv = new Map<string, ReadonlyArray<string>>()
  for (const { code, label } of labels.cpvEnglish) {
    const { concepts, covered } = conceptsOfLabel("en", label)
    const prefix = normalizeCpvPrefix(code)
    if (prefix.length >= 3 && concepts.length > 0) ofCpv.set(prefix, concepts)
    const sorted = concepts.toSorted()
    const first = sorted[0]
    if (!covered || first === undefined) continue
    const list = conceptLabels.get(first)
    if (list === undefined) conceptLabels.set(first, [{ code, concepts: sorted }])
    else list.push({ code, concepts: sorted })
  }
  // Only the OKPD2 labels are read later (the English ones are not kept by the closure).
  const okpd2Labels = labels.okpd2Labels
  const okpd2Concepts = new Map<string, ReadonlyArray<string>>()
  const ofOkpd2 = (code: string): ReadonlyArray<string> => {
    let concepts = okpd2Concepts.get(code)
    if (concepts === undefined) {
      const label = okpd2Labels.get(code)
      concepts = label === undefined ? [] : conceptsOfLabel("ru", label).concepts
      okpd2Concepts.set(code, concepts)
    }
    return concepts
  }
  return { conceptLabels, ofCpv, ofOkpd2 }
}
