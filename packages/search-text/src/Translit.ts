// Names across scripts: Armenian and Cyrillic words are also indexed in a Latin transliteration, and Latin query
// words are looked up in it, so "Gyumri" finds Գյումրի and Гюмри, and "Kazan" finds Казань. The tables follow the
// common romanisations (BGN/PCGN-like, without diacritics); `phonetic` then folds the spellings that differ
// between them (kh/h, ts/c, y/j, doubled letters, a leading ye-/e-). Not the table of gnumner tender ids
// (adapters-sources gnumner/code.ts): ids must never change, this one may follow how names are spelt (ը is e here).

const armenian: Readonly<Record<string, string>> = {
  ա: "a",
  բ: "b",
  գ: "g",
  դ: "d",
  ե: "e",
  զ: "z",
  է: "e",
  ը: "e",
  թ: "t",
  ժ: "zh",
  ի: "i",
  լ: "l",
  խ: "kh",
  ծ: "ts",
  կ: "k",
  հ: "h",
  ձ: "dz",
  ղ: "gh",
  ճ: "ch",
  մ: "m",
  յ: "y",
  ն: "n",
  շ: "sh",
  ո: "o",
  չ: "ch",
  պ: "p",
  ջ: "j",
  ռ: "r",
  ս: "s",
  վ: "v",
  տ: "t",
  ր: "r",
  ց: "ts",
  ւ: "v",
  փ: "p",
  ք: "k",
  օ: "o",
  ֆ: "f"
}

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

/** The Latin transliteration of an Armenian or Cyrillic word (lower case); other letters are kept. */
export const transliterate = (word: string): string => {
  // Armenian ու is one vowel, u; եւ (NFKC of և) is yev/ev.
  const text = word.replaceAll("ու", "u").replaceAll("եւ", "ev")
  let out = ""
  for (const ch of text) out += armenian[ch] ?? cyrillic[ch] ?? ch
  return out
}
