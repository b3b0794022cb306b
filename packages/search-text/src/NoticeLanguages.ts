// The languages a notice is read in: its country's (TED, EIS and gnumner publish in them), and, for a word of a script
// other than Latin, the languages that script's labels speak. Which codes a notice's words name, and which stemmers
// read its Latin words, follow from them (DocumentTerms.ts).

import type { Script } from "./Normalize.ts"
import { latinLanguages, type StemmedLanguage } from "./Stemming.ts"

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

/**
 * The languages the labels speak in a script other than Latin, the one a notice of no such country is read in first.
 */
export const scriptLanguages: Partial<Record<Script, ReadonlyArray<string>>> = {
  armenian: ["hy"],
  cyrillic: ["ru", "bg"],
  greek: ["el"]
}
