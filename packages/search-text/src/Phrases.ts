// Phrases: the glossary's terms and the places' names as the stems of their words in order, indexed by the first
// stem, and found in a text's word forms. A tender's concepts and places, a query's, and a label's are found this
// one way.

import { formIn } from "./Stemming.ts"

/**
 * A phrase of a concept: the stems of its words in order, and the languages it is written in (a glossary phrase's;
 * none for a place's name, matched in any language).
 */
export interface Phrase {
  readonly stems: ReadonlyArray<string>
  readonly concept: string
  readonly languages?: ReadonlyArray<string>
}

/** Phrases indexed by their first stem, matched against a text's word forms. */
export type PhraseIndex = ReadonlyMap<string, ReadonlyArray<Phrase>>

/** A phrase found in a text: its concept, and the positions of the first and the last word it covers. */
export interface FoundPhrase {
  readonly concept: string
  readonly from: number
  readonly to: number
}

/** Indexes phrases by their first stem; one phrase of several languages (the same stems) is written in each. */
export const indexPhrases = (phrases: ReadonlyArray<Phrase>): PhraseIndex => {
  const index = new Map<string, Array<Phrase>>()
  for (const phrase of phrases) {
    const first = phrase.stems[0]
    if (first === undefined) continue
    const list = index.get(first)
    const same = list?.findIndex((p) => p.concept === phrase.concept && p.stems.join(" ") === phrase.stems.join(" "))
    if (list === undefined) index.set(first, [phrase])
    else if (same === undefined || same < 0) list.push(phrase)
    else {
      const before = list[same]
      if (before?.languages !== undefined && phrase.languages !== undefined)
        list[same] = { ...before, languages: [...new Set([...before.languages, ...phrase.languages])] }
    }
  }
  return index
}

/**
 * The concepts whose phrases occur in a sequence of word forms, with the span of words each covers. A form that is a
 * word's stem in some languages only (`stems`, by position: `latinStems`) stands for the word in a phrase of one of
 * them: the Hungarian stem of "card", "car", is no English "car".
 */
export const findPhrases = (
  index: PhraseIndex,
  positions: ReadonlyArray<ReadonlySet<string>>,
  stems: ReadonlyArray<ReadonlyMap<string, ReadonlyArray<string>>> = []
): ReadonlyArray<FoundPhrase> => {
  const found: Array<FoundPhrase> = []
  const inLanguage = (phrase: Phrase, at: number, stem: string) =>
    phrase.languages === undefined || phrase.languages.some((language) => formIn(stems[at], stem, language))
  positions.forEach((forms, i) => {
    for (const form of forms) {
      for (const phrase of index.get(form) ?? []) {
        if (phrase.stems.every((stem, k) => positions[i + k]?.has(stem) === true && inLanguage(phrase, i + k, stem))) {
          found.push({ concept: phrase.concept, from: i, to: i + phrase.stems.length - 1 })
        }
      }
    }
  })
  return found
}
