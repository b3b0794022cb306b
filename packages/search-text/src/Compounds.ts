// Compounds (German, Dutch, the Nordic languages): a long word that is two known words of one language (with a
// linking -s-, -es-, -en-, -n- or -e- between them: Abwasser|entsorgung, Straßen|sanierung), or that ends in a
// glossary word, also has the forms of those parts, so the concepts and the split forms of its parts are found
// ("road", "repair"; "Entsorgung von Abwasser"). Known words are the glossary's and the CPV labels' of the language
// (`compound-parts.json`, made here from the labels): a split is never guessed from letters alone, nor made of two
// languages' words.

import type { CpvEntry } from "./Labels.ts"
import type { Lexicon } from "./Lexicon.ts"
import { type Word, wordsOf } from "./Normalize.ts"
import { formsOf, type StemmedLanguage, stemIn } from "./Stemming.ts"

/** The languages that write compounds as one word, and the shortest part a compound is split into. */
export const compoundingLanguages = ["de", "nl", "sv", "da", "fi"] as const
export const minCompoundPart = 4

/**
 * The stems of the CPV labels' words (of `minCompoundPart` letters and more, no stop word) in each compounding
 * language: the content of `compound-parts.json`, the parts a compound may be split into (`Abwasserentsorgung` into
 * the stems of `Abwasser` and `Entsorgung`, words of other labels).
 */
export const compoundPartsOf = (
  cpv: ReadonlyArray<CpvEntry>,
  stopWords: ReadonlySet<string>
): Record<string, ReadonlyArray<string>> =>
  Object.fromEntries(
    compoundingLanguages.map((language) => {
      const stems = new Set<string>()
      for (const entry of cpv)
        for (const word of wordsOf(entry.labels[language] ?? ""))
          if (word.script === "latin" && !stopWords.has(word.text)) {
            const stem = stemIn(language, word)
            if (stem.length >= minCompoundPart && !stopWords.has(stem)) stems.add(stem)
          }
      return [language, [...stems].toSorted()]
    })
  )

/** The content of `compound-parts.json`: one line a language. */
export const compoundPartsText = (parts: Record<string, ReadonlyArray<string>>): string =>
  `{\n${Object.entries(parts)
    .map(([language, stems]) => `  ${JSON.stringify(language)}: ${JSON.stringify(stems)}`)
    .join(",\n")}\n}\n`

/** `compoundingLanguages` as a set, and the fewest letters of a word looked at as a compound. */
const compounding: ReadonlySet<StemmedLanguage> = new Set(compoundingLanguages)
const minCompound = 9

/** The parts of a compound word read in some Latin languages: the forms of the known words it is made of. */
export type CompoundSplitter = (word: Word, latin: ReadonlyArray<StemmedLanguage>) => ReadonlyArray<string>

/** The compound splitter of a lexicon (its glossary's one-word terms and `compoundParts`). */
export const compoundSplitter = (lexicon: Lexicon): CompoundSplitter => {
  const glossaryWord = (form: string) => (lexicon.concepts.get(form) ?? []).some((phrase) => phrase.stems.length === 1)
  const knownForms = (text: string, language: StemmedLanguage) =>
    formsOf({ text, script: "latin" }, [language]).filter(
      (form) =>
        form.length >= minCompoundPart &&
        (lexicon.compoundParts.get(language)?.has(form) === true || glossaryWord(form))
    )
  const compoundParts = (word: Word, latin: ReadonlyArray<StemmedLanguage>, depth = 0): ReadonlyArray<string> => {
    const languages = latin.filter((language) => compounding.has(language))
    if (word.script !== "latin" || languages.length === 0 || [...word.text].length < minCompound) return []
    const parts = new Set<string>()
    for (let k = minCompoundPart; k <= word.text.length - minCompoundPart; k++) {
      const tail = word.text.slice(k)
      const heads = [...new Set([word.text.slice(0, k), word.text.slice(0, k).replace(/(?:en|es|s|n|e)$/u, "")])]
      // The word before may be a compound itself (Abwasserentsorgungs|anlage: Abwasser|entsorgung), and so may the
      // known word at the end; the word before is split only once the end is known.
      let headParts: ReadonlyArray<string> | undefined
      let split = false
      for (const language of languages) {
        const tailForms = knownForms(tail, language)
        if (tailForms.length === 0) continue
        const headForms = heads.flatMap((head) => knownForms(head, language))
        if (headForms.length === 0 && !tailForms.some(glossaryWord)) {
          headParts ??=
            depth < 2 ? heads.flatMap((head) => compoundParts({ text: head, script: "latin" }, latin, depth + 1)) : []
          if (headParts.length === 0) continue
        }
        for (const form of [...tailForms, ...headForms, ...(headParts ?? [])]) parts.add(form)
        split = true
      }
      if (!split) continue
      if (depth < 2)
        for (const form of compoundParts({ text: tail, script: "latin" }, latin, depth + 1)) parts.add(form)
      break
    }
    return [...parts]
  }
  return (word, latin) => compoundParts(word, latin)
}
