// The lexicon: the data the analysis reads (LexiconData.ts), indexed once for it, and every index the analysis reads
// derived here, so that each part of the analysis reads one index and can be tested on a lexicon made for it.

import { type LabelIndex, labelIndex } from "./LabelIndex.ts"
import { type LabelConcepts, labelConceptsOf } from "./LabelConcepts.ts"
import type { LexiconData } from "./LexiconData.ts"
import { glossaryStems, termText } from "./GlossaryTerms.ts"
import { cpvSpannedByLevel } from "./Okpd2.ts"
import { indexPhrases, type Phrase, type PhraseIndex } from "./Phrases.ts"
import { phraseStems } from "./Stemming.ts"

/** The lexicon, indexed for the analysis: every index the analysis reads, built from the data here. */
export interface Lexicon {
  readonly concepts: PhraseIndex
  /**
   * The concepts' English phrases only (matched against English CPV labels, where another language's homonyms would
   * mislead: the Finnish "tie", road, is the English "ties").
   */
  readonly englishConcepts: PhraseIndex
  /** The concepts' Russian phrases only (matched against the OKPD2 labels, for the same reason). */
  readonly russianConcepts: PhraseIndex
  readonly places: PhraseIndex
  /** Concept id -> readable names per language (for the hint). */
  readonly names: ReadonlyMap<string, Readonly<Record<string, ReadonlyArray<string>>>>
  readonly generic: ReadonlySet<string>
  /** Concept -> the concepts it is a kind of, at every remove (its glossary entry's `broader`, theirs, ...). */
  readonly broader: ReadonlyMap<string, ReadonlyArray<string>>
  /** NUTS code -> place concepts. */
  readonly nuts: ReadonlyMap<string, ReadonlyArray<string>>
  /** Place concept -> the place concepts it lies in, nearest first. */
  readonly within: ReadonlyMap<string, ReadonlyArray<string>>
  /** Content stem -> the CPV labels having it (and the OKPD2 ones of the packs), packed (`labelIndex`). */
  readonly labels: LabelIndex
  /** OKPD2 code -> the CPV prefixes the crosswalk links it to. */
  readonly okpd2ToCpv: ReadonlyMap<string, ReadonlyArray<string>>
  /** OKPD2 level -> the CPV prefixes it spans through the crosswalk (`cpvSpannedByLevel`). */
  readonly cpvOfOkpd2: ReadonlyMap<string, ReadonlyArray<string>>
  /** The concepts the CPV and OKPD2 labels name (`labelConceptsOf`). */
  readonly labelConcepts: LabelConcepts
  /**
   * Per language, the stems a compound of German, Dutch or a Nordic language may be split into (and the glossary's).
   */
  readonly compoundParts: ReadonlyMap<string, ReadonlySet<string>>
}

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (!list.includes(value)) list.push(value)
}

/** Indexes lexicon data for the analysis (`stopWords`: as the analysis reads the glossary's terms and the labels). */
export const buildLexicon = (data: LexiconData, stopWords: ReadonlySet<string> = new Set()): Lexicon => {
  const names = new Map<string, Readonly<Record<string, ReadonlyArray<string>>>>()
  const conceptPhrases: Array<Phrase> = []
  const englishPhrases: Array<Phrase> = []
  const russianPhrases: Array<Phrase> = []
  const generic = new Set<string>()
  const termStems = glossaryStems(data.glossary, stopWords)
  for (const entry of data.glossary) {
    const concept = `c:${entry.id}`
    if (entry.generic === true) generic.add(concept)
    const terms = Object.entries(entry.terms)
    names.set(concept, Object.fromEntries(terms.map(([language, list]) => [language, list.map(termText)])))
    for (const [language, list] of terms) {
      for (const term of list) {
        const phrase = { stems: termStems(language, term), concept, languages: [language] }
        if (phrase.stems.length === 0) continue
        conceptPhrases.push(phrase)
        if (language === "en") englishPhrases.push(phrase)
        if (language === "ru") russianPhrases.push(phrase)
      }
    }
  }
  const placePhrases: Array<Phrase> = []
  const nuts = new Map<string, Array<string>>()
  for (const place of data.places) {
    const concept = `p:${place.id}`
    names.set(concept, place.names)
    for (const [language, list] of Object.entries(place.names)) {
      for (const name of list) placePhrases.push({ stems: phraseStems(language, name), concept })
    }
    for (const code of place.nuts ?? []) push(nuts, code, concept)
  }
  const parentOf = new Map(
    data.places.flatMap((place) => (place.within === undefined ? [] : [[place.id, place.within]]))
  )
  const within = new Map<string, ReadonlyArray<string>>()
  for (const place of data.places) {
    const chain: Array<string> = []
    for (let up = parentOf.get(place.id); up !== undefined && !chain.includes(`p:${up}`); up = parentOf.get(up))
      chain.push(`p:${up}`)
    if (chain.length > 0) within.set(`p:${place.id}`, chain)
  }

  const broaderOf = new Map(data.glossary.map((entry) => [entry.id, entry.broader ?? []]))
  const broader = new Map<string, ReadonlyArray<string>>()
  for (const entry of data.glossary) {
    const found: Array<string> = []
    const queue = [...(entry.broader ?? [])]
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (id === entry.id || found.includes(`c:${id}`)) continue
      found.push(`c:${id}`)
      queue.push(...(broaderOf.get(id) ?? []))
    }
    if (found.length > 0) broader.set(`c:${entry.id}`, found)
  }

  const okpd2ToCpv = new Map<string, Array<string>>()
  const cpvToOkpd2 = new Map<string, Array<string>>()
  for (const link of data.crosswalk) {
    push(okpd2ToCpv, link.okpd2, link.cpv)
    push(cpvToOkpd2, link.cpv, link.okpd2)
  }
  const englishConcepts = indexPhrases(englishPhrases)
  const russianConcepts = indexPhrases(russianPhrases)
  return {
    concepts: indexPhrases(conceptPhrases),
    englishConcepts,
    russianConcepts,
    places: indexPhrases(placePhrases),
    names,
    generic,
    broader,
    nuts,
    within,
    labels: labelIndex(data.labels),
    okpd2ToCpv,
    cpvOfOkpd2: cpvSpannedByLevel(cpvToOkpd2),
    labelConcepts: labelConceptsOf(
      { en: englishConcepts, ru: russianConcepts, generic },
      { cpvEnglish: data.cpvEnglish, okpd2Labels: data.okpd2Labels ?? new Map() },
      stopWords
    ),
    compoundParts: data.compoundParts
  }
}
