// Text as the analysis reads it: normalised (NFKC, lower case), cut into words with their script, and a Latin word
// folded (no diacritics). Both sides of the search read text by these, so a tender's words and a query's meet.

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

/**
 * The articles and prepositions French, Italian and Catalan write elided before a vowel (`l'école`, `d'œuvre`,
 * `dell'ospedale`, `quest'anno`): before an apostrophe they are not words of their own.
 */
const elided = new Set(
  "l d j m n s t c qu jusqu lorsqu puisqu quoiqu un dell dall nell sull all coll pell quell quest bell sant".split(" ")
)
const apostrophe = /['\u2019\u02bc]/u

/**
 * The words of a text (letters and digits; punctuation and operators split words and are dropped; an elided article
 * or preposition before an apostrophe, and the English possessive's s after one, are dropped).
 */
export const wordsOf = (text: string): ReadonlyArray<Word> => {
  const normalized = normalizeText(text)
  return Array.from(normalized.matchAll(wordPattern), (m) => ({ text: m[0], script: scriptOf(m[0]), at: m.index }))
    .filter(
      ({ text, at }) =>
        !(
          elided.has(text) &&
          apostrophe.test(normalized.charAt(at + text.length)) &&
          /\p{L}/u.test(normalized.charAt(at + text.length + 1))
        ) && !(text === "s" && at > 1 && apostrophe.test(normalized.charAt(at - 1)))
    )
    .map(({ text, script }) => ({ text, script }))
}

/** The Latin letters that are no letter with a diacritic, and how they are written without (`foldLatin`). */
const ligatures: Readonly<Record<string, string>> = {
  ß: "ss",
  œ: "oe",
  æ: "ae",
  ø: "o",
  ł: "l",
  đ: "d",
  ı: "i",
  þ: "th"
}
const ligature = new RegExp(`[${Object.keys(ligatures).join("")}]`, "gu")

/** A Latin word without diacritics (München and Munchen, Kraków and Krakow are one word). */
export const foldLatin = (word: string): string =>
  word
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(ligature, (letter) => ligatures[letter] ?? letter)

/** A word as written, as it is matched when not by a stem: a Latin word without diacritics (`foldLatin`). */
export const asWritten = (word: Word): string => (word.script === "latin" ? foldLatin(word.text) : word.text)
