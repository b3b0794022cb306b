/** The writing systems the analysis tells apart. */
export type Script = "latin" | "cyrillic" | "armenian" | "greek" | "other"

/** A word of a text, normalised (NFKC, lower case, ё as е), with its script. */
export interface Word {
  readonly text: string
  readonly script: Script
}

const wordPattern = /[\p{L}\p{N}]+/gu

/** The script of a word, decided by its letters (digits and other scripts are "other"). */
export const scriptOf = (word: string): Script => {
  if (/\p{Script=Armenian}/u.test(word)) return "armenian"
  if (/\p{Script=Cyrillic}/u.test(word)) return "cyrillic"
  if (/\p{Script=Greek}/u.test(word)) return "greek"
  if (/\p{Script=Latin}/u.test(word)) return "latin"
  return "other"
}

/**
 * Normalises text for matching: NFKC (so the Armenian ligature և and եւ are one), lower case (in JavaScript, not
 * the database's locale), ё as е.
 */
export const normalizeText = (text: string): string => text.normalize("NFKC").toLowerCase().replaceAll("ё", "е")

/** The words of a text (letters and digits; punctuation and operators split words and are dropped). */
export const wordsOf = (text: string): ReadonlyArray<Word> =>
  Array.from(normalizeText(text).matchAll(wordPattern), (m) => ({ text: m[0], script: scriptOf(m[0]) }))

const ligatures: ReadonlyArray<readonly [RegExp, string]> = [
  [/ß/gu, "ss"],
  [/œ/gu, "oe"],
  [/æ/gu, "ae"],
  [/ø/gu, "o"],
  [/ł/gu, "l"],
  [/đ/gu, "d"],
  [/ı/gu, "i"],
  [/þ/gu, "th"]
]

/** A Latin word without diacritics (München and Munchen, Kraków and Krakow are one word). */
export const foldLatin = (word: string): string => {
  let folded = word.normalize("NFD").replace(/\p{M}/gu, "")
  for (const [from, to] of ligatures) folded = folded.replace(from, to)
  return folded
}
