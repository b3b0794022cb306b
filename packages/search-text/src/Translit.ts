// Names across scripts: Armenian and Cyrillic words are also indexed in a Latin transliteration, and Latin query
// words are looked up in it, so "Gyumri" finds Գյումրի and Гюмри, and "Kazan" finds Казань. The letters follow the
// common romanisations (BGN/PCGN-like, without diacritics): the Armenian ones are core's table (`armenianLatin`, by
// which gnumner's tender ids are spelt too), the Cyrillic ones are here; `phonetic` then folds the spellings that
// differ between them (kh/h, ts/c, y/j, doubled letters, a leading ye-/e-).

import { armenianInLatin, armenianLatin } from "@tenders/core"

/**
 * The Armenian letters as the search reads them: core's table, but ը as e, as names are spelt. A tender id's slug
 * keeps the table's y (gnumner's code.ts): an id never changes, this reading may follow how names are spelt.
 */
const armenian: Readonly<Record<string, string>> = { ...armenianLatin, ը: "e" }

const cyrillic: Readonly<Record<string, string>> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  і: "i",
  ї: "yi",
  є: "ye",
  ґ: "g"
}

/** Folds romanisation variants: kh/h, ts/c, j/y, w/v, ye-/e-, doubled letters. */
export const phonetic = (latin: string): string =>
  latin
    .replace(/^ye/u, "e")
    .replace(/^ie/u, "e")
    .replaceAll("kh", "h")
    .replaceAll("ts", "c")
    .replaceAll("tz", "c")
    .replaceAll("j", "y")
    .replaceAll("w", "v")
    .replaceAll("iy", "y")
    .replace(/(.)\1+/gu, "$1")

/**
 * The Latin transliteration of an Armenian or Cyrillic word (lower case, NFKC as `wordsOf` gives it: և as եւ); other
 * letters are kept.
 */
export const transliterate = (word: string): string => {
  let out = ""
  for (const ch of armenianInLatin(word, armenian)) out += cyrillic[ch] ?? ch
  return out
}
