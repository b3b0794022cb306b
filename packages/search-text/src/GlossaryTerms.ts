// How a glossary term is matched: by the stems of its words, or as written where its stems would meet words of
// another meaning (a term marked `=`, a short stem two concepts share, a stem that is a stop word). The lexicon's
// phrases of the glossary are these stems (Lexicon.ts).

import type { GlossaryEntry } from "./LexiconData.ts"
import { asWritten, type Word, wordsOf } from "./Normalize.ts"
import { phraseStems, stemIn } from "./Stemming.ts"

/**
 * A glossary term written `=words` is matched as written (without diacritics), not by its stems: for a word whose
 * stem is also the stem of common words of another meaning (the Portuguese "publicidade", advertising, stems to
 * "public", as "público" does; the English "engineering" to "engin", as "engines" does).
 */
const exactMark = "="

/** A glossary term as people read it (without the `=` of an exact term). */
export const termText = (term: string): string => (term.startsWith(exactMark) ? term.slice(exactMark.length) : term)

/**
 * A one-word glossary term in Latin script whose stem is this short, is not the word itself, and is also the stem of
 * a one-word term of another concept, is matched as written: the stem stands for unrelated words of the many
 * Latin-script languages (the French "route", road, and the German "Router" are both "rout"; the Italian "gara",
 * tender, and the French "gare", station, both "gar"). A short stem of one concept only is kept ("wast" finds
 * "wastes"), and Cyrillic and Armenian terms, one stemmer each, keep theirs ("школа" is "школ").
 */
const maxAmbiguousStem = 4

/**
 * The stems of every glossary term, a term marked `=` as written, and the short stems that two concepts share. A
 * one-word term whose stem is a stop word of some language is matched as written ("metano", natural gas, is not the
 * Dutch "met", with), and not at all when the word as written is one too (the French "thé", tea, is the English "the";
 * the Swedish "by", village, the English "by"): it cannot be told from the stop word in a text.
 */
export const glossaryStems = (
  glossary: ReadonlyArray<GlossaryEntry>,
  stopWords: ReadonlySet<string>
): ((language: string, term: string) => ReadonlyArray<string>) => {
  const stemsOf = new Map<string, ReadonlyArray<string>>()
  const conceptsOfStem = new Map<string, Set<string>>()
  // One word in Latin script, whose stem is short and not the word.
  const shortStem = (words: ReadonlyArray<Word>, stems: ReadonlyArray<string>) => {
    const [word] = words
    const [stem = ""] = stems
    return (
      word !== undefined &&
      words.length === 1 &&
      word.script === "latin" &&
      [...stem].length <= maxAmbiguousStem &&
      stem !== asWritten(word)
    )
  }
  for (const entry of glossary)
    for (const [language, list] of Object.entries(entry.terms))
      for (const term of list) {
        const exact = term.startsWith(exactMark)
        const words = wordsOf(termText(term))
        const stems = exact ? words.map(asWritten) : words.map((word) => stemIn(language, word))
        stemsOf.set(`${language}\u0000${term}`, stems)
        if (!exact && shortStem(words, stems)) {
          const stem = stems[0] ?? ""
          conceptsOfStem.set(stem, new Set([...(conceptsOfStem.get(stem) ?? []), entry.id]))
        }
      }
  /** The stems a term is matched by; none when it cannot be told from a stop word. */
  return (language: string, term: string): ReadonlyArray<string> => {
    const stems = stemsOf.get(`${language}\u0000${term}`) ?? phraseStems(language, term)
    const written = () => wordsOf(termText(term)).map(asWritten)
    if (stems.length === 1 && stopWords.has(stems[0] ?? "")) return stopWords.has(written()[0] ?? "") ? [] : written()
    const shared = (conceptsOfStem.get(stems[0] ?? "")?.size ?? 0) > 1
    return shared && !term.startsWith(exactMark) && shortStem(wordsOf(term), stems) ? written() : stems
  }
}
