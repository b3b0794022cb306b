// The terms of one word of a text: its forms (the word, its stems, its compound's parts) and its transliteration
// terms, by the Latin languages it is read in. Notices repeat their words, and working a word out is most of the
// analysis's time on ingest: a tender's words are worked out once each (`wordTermsOf`).

import type { CompoundSplitter } from "./Compounds.ts"
import { boundedMemo } from "./Memo.ts"
import type { Word } from "./Normalize.ts"
import { formsOf, latinStems, type StemmedLanguage, stemmerFor, stemmerOf } from "./Stemming.ts"
import { phonetic, transliterate } from "./Translit.ts"

const translitTerm = (latin: string): string => `t:${phonetic(latin)}`

/** The transliteration terms of a word: of the word and of its stem (so Казани and Казань meet at kazan). */
export const translitTerms = (word: Word): ReadonlyArray<string> => {
  if (word.script === "latin") {
    const folded = formsOf(word, [])[0] ?? word.text
    return [...new Set([translitTerm(folded), translitTerm(stemmerOf("en")(word.text))])]
  }
  const language = stemmerFor(word.script)
  if (language === undefined) return []
  const stem = stemmerOf(language)(word.text)
  return [...new Set([translitTerm(transliterate(word.text)), translitTerm(transliterate(stem))])]
}

/** A word's terms in a tender: its forms, its Latin stems with their languages (`latinStems`), its transliteration. */
export interface WordTerms {
  readonly forms: ReadonlySet<string>
  readonly stems: ReadonlyMap<string, ReadonlyArray<string>>
  readonly translit: ReadonlyArray<string>
}

/** The terms of a word of a tender read in some Latin languages (`languages`: the same, as one key). */
export type TenderWordTerms = (word: Word, latin: ReadonlyArray<StemmedLanguage>, languages: string) => WordTerms

/**
 * How many words' terms are kept (`boundedMemo`): about 0.8 KB each, so at most about 16 MB however many words an
 * ingest meets (npm run bench:vocabulary; docs/decisions.md, "the analysis' memos").
 */
const wordsKept = 20_000

/**
 * The terms of a tender's words, by a compound splitter. A Latin word of a tender has no transliteration terms: a
 * query's Latin word meets it by its forms.
 */
export const wordTermsOf = (compoundParts: CompoundSplitter): TenderWordTerms => {
  const memo = boundedMemo<WordTerms>(wordsKept)
  return (word, latin, languages) =>
    memo(`${languages}\u0000${word.text}`, () => {
      const stems = latinStems(word, latin)
      return {
        forms: new Set([...formsOf(word, latin, stems), ...compoundParts(word, latin)]),
        stems,
        translit: word.script === "latin" ? [] : translitTerms(word)
      }
    })
}
