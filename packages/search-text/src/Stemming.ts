import snowball from "snowball-stemmers"
import { armenianStem } from "./Armenian.ts"
import { foldLatin, type Word } from "./Normalize.ts"
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

/**
 * The languages of a country's notices (ISO 3166-1 alpha-2 to ISO 639-1): its official languages as TED, EIS and
 * gnumner publish in them (Norway's read as Danish, which the CPV labels speak).
 */
export const noticeLanguages: Readonly<Record<string, ReadonlyArray<string>>> = {
  AM: ["hy"],
  AT: ["de"],
  BE: ["fr", "nl", "de"],
  BG: ["bg"],
  BY: ["ru"],
  CH: ["de", "fr", "it"],
  CY: ["el"],
  CZ: ["cs"],
  DE: ["de"],
  DK: ["da"],
  EE: ["et"],
  ES: ["es"],
  FI: ["fi", "sv"],
  FR: ["fr"],
  GR: ["el"],
  HR: ["hr"],
  HU: ["hu"],
  IE: ["ga", "en"],
  IT: ["it"],
  KG: ["ru"],
  KZ: ["ru"],
  LI: ["de"],
  LT: ["lt"],
  LU: ["fr", "de"],
  LV: ["lv"],
  MT: ["mt", "en"],
  NL: ["nl"],
  NO: ["da"],
  PL: ["pl"],
  PT: ["pt"],
  RO: ["ro"],
  RU: ["ru"],
  SE: ["sv"],
  SI: ["sl"],
  SK: ["sk"]
}

/**
 * The Latin-script languages with a stemmer of a notice by its country (`noticeLanguages`), for TED notices, whose
 * text is in the buyer's language: their Latin words are stemmed in these and in English (TED titles also carry the
 * English CPV label). Languages without a stemmer (Slovak, the Baltic languages, Croatian, Maltese) match by word.
 */
export const countryLanguages: Readonly<Record<string, ReadonlyArray<StemmedLanguage>>> = Object.fromEntries(
  Object.entries(noticeLanguages).flatMap(([country, languages]) => {
    const latin = latinLanguages.filter((language) => language !== "en" && languages.includes(language))
    return latin.length === 0 ? [] : [[country, latin]]
  })
)

const cacheLimit = 200_000
const stemmers = new Map<StemmedLanguage, (word: string) => string>()

const cached = (stem: (word: string) => string) => {
  const cache = new Map<string, string>()
  return (word: string) => {
    let result = cache.get(word)
    if (result === undefined) {
      result = stem(word)
      if (cache.size >= cacheLimit) cache.clear()
      cache.set(word, result)
    }
    return result
  }
}

/** The stemmer of a language (cached: notices repeat their words). */
export const stemmerOf = (language: StemmedLanguage): ((word: string) => string) => {
  let stemmer = stemmers.get(language)
  if (stemmer === undefined) {
    if (language === "hy" || language === "pl") stemmer = cached(ownStemmers[language])
    else {
      const snow = snowball.newStemmer(snowballNames[language])
      stemmer = cached((word) => foldLatin(snow.stem(word)))
    }
    stemmers.set(language, stemmer)
  }
  return stemmer
}

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
 * The forms a word is indexed and looked up by: the word itself (Latin without diacritics) and its stem in each
 * given language of its script (Cyrillic: Russian; Armenian: Armenian; Latin: `latin`, or its `latinStems` when the
 * caller has them). Stems shorter than three letters are dropped (they would join unrelated words).
 */
export const formsOf = (
  word: Word,
  latin: ReadonlyArray<StemmedLanguage>,
  stems: ReadonlyMap<string, ReadonlyArray<string>> = latinStems(word, latin)
): ReadonlyArray<string> => {
  const forms = new Set<string>()
  const add = (form: string) => {
    if (stemKept(form, word.text)) forms.add(form)
  }
  switch (word.script) {
    case "latin": {
      forms.add(foldLatin(word.text))
      for (const stem of stems.keys()) forms.add(stem)
      break
    }
    case "cyrillic":
      forms.add(word.text)
      add(stemmerOf("ru")(word.text))
      break
    case "armenian":
      forms.add(word.text)
      add(stemmerOf("hy")(word.text))
      break
    default:
      forms.add(word.text)
  }
  return [...forms]
}

/**
 * The stem of a term of a known language (glossary entries, classification labels), by the rule of `formsOf`: a stem
 * too short to be kept stands for the word itself (the Spanish acronym "DEA" is "dea", not the stem "de" that would
 * find every "de" of a text).
 */
export const stemIn = (language: string, word: Word): string => {
  const itself = word.script === "latin" ? foldLatin(word.text) : word.text
  const stem =
    word.script === "cyrillic"
      ? stemmerOf("ru")(word.text)
      : word.script === "armenian"
        ? stemmerOf("hy")(word.text)
        : word.script === "latin" && isStemmed(language)
          ? stemmerOf(language)(word.text)
          : itself
  return stemKept(stem, word.text) ? stem : itself
}
