// The stemmers words are read by (Snowball's, and our own for Armenian and Polish), which one reads a word, and the
// forms a word is indexed and looked up by: one place for what a word's stems are, on both sides of the search.

import snowball from "snowball-stemmers"
import { armenianStem } from "./Armenian.ts"
import { boundedMemo } from "./Memo.ts"
import { asWritten, foldLatin, type Script, type Word, wordsOf } from "./Normalize.ts"
import { polishStem } from "./Polish.ts"

/** Languages with a Snowball stemmer (through `snowball-stemmers`), by ISO 639-1 code. */
const snowballNames = {
  en: "english",
  de: "german",
  fr: "french",
  it: "italian",
  es: "spanish",
  pt: "portuguese",
  nl: "dutch",
  ro: "romanian",
  sv: "swedish",
  da: "danish",
  fi: "finnish",
  hu: "hungarian",
  cs: "czech",
  sl: "slovene",
  ga: "irish",
  ru: "russian"
} as const

/** Languages with a stemmer: Snowball's, and our own for Armenian and Polish (Armenian.ts, Polish.ts). */
export type StemmedLanguage = keyof typeof snowballNames | "hy" | "pl"

const ownStemmers: Readonly<Record<"hy" | "pl", (word: string) => string>> = {
  hy: armenianStem,
  pl: (word) => foldLatin(polishStem(word))
}

const isStemmed = (language: string): language is StemmedLanguage =>
  language in snowballNames || language in ownStemmers

/** The Latin-script languages with a stemmer: a query word in Latin letters is stemmed in each. */
export const latinLanguages: ReadonlyArray<StemmedLanguage> = [
  "en",
  "de",
  "fr",
  "it",
  "es",
  "pt",
  "nl",
  "ro",
  "sv",
  "da",
  "fi",
  "hu",
  "cs",
  "sl",
  "ga",
  "pl"
]

/** How many stems of a language are kept (`boundedMemo`; a replica's bound, as `wordsKept` in WordTerms.ts). */
const stemsKept = 40_000
const stemmers = new Map<StemmedLanguage, (word: string) => string>()

/** The stemmer of a language (memoised: notices repeat their words). */
export const stemmerOf = (language: StemmedLanguage): ((word: string) => string) => {
  let stemmer = stemmers.get(language)
  if (stemmer === undefined) {
    const stem = language === "hy" || language === "pl" ? ownStemmers[language] : snowballStemmer(language)
    const memo = boundedMemo<string>(stemsKept)
    stemmer = (word) => memo(word, () => stem(word))
    stemmers.set(language, stemmer)
  }
  return stemmer
}

/**
 * Empties the stemmers' memos. Building the lexicon fills them with the words of the glossary and the labels (about
 * 4 MB of a server's heap), few of which the notices and queries read afterwards ask for; a stem is worked out again
 * when asked.
 */
export const forgetStems = (): void => stemmers.clear()

const snowballStemmer = (language: keyof typeof snowballNames): ((word: string) => string) => {
  const snow = snowball.newStemmer(snowballNames[language])
  return (word) => foldLatin(snow.stem(word))
}

/**
 * The one stemmer of each script other than Latin, whatever the word's language: a Cyrillic word is read as Russian
 * (a Bulgarian label's too), an Armenian word as Armenian.
 */
const scriptStemmers: Partial<Record<Script, StemmedLanguage>> = { cyrillic: "ru", armenian: "hy" }

/**
 * The language whose stemmer stems a word of a script: of a Latin word, the language it is read in when that has a
 * stemmer; of a Cyrillic or Armenian word, its script's (`scriptStemmers`); none for the other scripts.
 */
export const stemmerFor = (script: Script, language?: string): StemmedLanguage | undefined =>
  script === "latin" ? (language !== undefined && isStemmed(language) ? language : undefined) : scriptStemmers[script]

/** A stem shorter than this is not a form of its word (it would meet unrelated short words), unless it is the word. */
const minStem = 3
const stemKept = (stem: string, text: string) => stem.length >= minStem || stem === text

/**
 * The stems of a Latin word in the given languages that are not the word itself (as `formsOf` keeps them), each with
 * the languages whose stemmer makes it: a stem is a form of the word in those languages only (the Hungarian stem of
 * "card" is "car", which is no English word of the card).
 */
export const latinStems = (
  word: Word,
  latin: ReadonlyArray<StemmedLanguage>
): ReadonlyMap<string, ReadonlyArray<StemmedLanguage>> => {
  const stems = new Map<string, Array<StemmedLanguage>>()
  if (word.script !== "latin") return stems
  const folded = foldLatin(word.text)
  for (const language of latin) {
    const stem = stemmerOf(language)(word.text)
    if (stem === folded || !stemKept(stem, word.text)) continue
    const languages = stems.get(stem)
    if (languages === undefined) stems.set(stem, [language])
    else languages.push(language)
  }
  return stems
}

/**
 * Whether a form of a word stands for it in a language: the word itself (or a part of it) in any, a stem only in the
 * languages whose stemmer made it (`stems`: the word's `latinStems`).
 */
export const formIn = (
  stems: ReadonlyMap<string, ReadonlyArray<string>> | undefined,
  form: string,
  language: string
): boolean => {
  const languages = stems?.get(form)
  return languages === undefined || languages.includes(language)
}

/**
 * The forms a word is indexed and looked up by: the word as written (`asWritten`) and its stems: a Latin word's in
 * each of the `latin` languages (or its `latinStems` when the caller has them), another script's by its stemmer
 * (`stemmerFor`). Stems shorter than three letters are dropped (they would join unrelated words).
 */
export const formsOf = (
  word: Word,
  latin: ReadonlyArray<StemmedLanguage>,
  stems: ReadonlyMap<string, ReadonlyArray<string>> = latinStems(word, latin)
): ReadonlyArray<string> => {
  const forms = new Set<string>([asWritten(word)])
  if (word.script === "latin") for (const stem of stems.keys()) forms.add(stem)
  else {
    const language = stemmerFor(word.script)
    const stem = language === undefined ? undefined : stemmerOf(language)(word.text)
    if (stem !== undefined && stemKept(stem, word.text)) forms.add(stem)
  }
  return [...forms]
}

/**
 * The stem of a term of a known language (glossary entries, classification labels), by the rule of `formsOf`: a stem
 * too short to be kept stands for the word itself (the Spanish acronym "DEA" is "dea", not the stem "de" that would
 * find every "de" of a text).
 */
export const stemIn = (language: string, word: Word): string => {
  const stemmer = stemmerFor(word.script, language)
  const stem = stemmer === undefined ? asWritten(word) : stemmerOf(stemmer)(word.text)
  return stemKept(stem, word.text) ? stem : asWritten(word)
}

/** The stems of a phrase's words in a language (`stemIn`). */
export const phraseStems = (language: string, phrase: string): ReadonlyArray<string> =>
  wordsOf(phrase).map((word) => stemIn(language, word))
