/**
 * The Armenian lower-case letters in Latin letters (BGN/PCGN-like, without diacritics): the one table for both places
 * Armenian is written in Latin, tender ids (gnumner's procurement codes) and the search's transliteration of names.
 * Each use states its own rule beside it where it differs (the search spells ը as e).
 */
export const armenianLatin: Readonly<Record<string, string>> = {
  ա: "a",
  բ: "b",
  գ: "g",
  դ: "d",
  ե: "e",
  զ: "z",
  է: "e",
  ը: "y",
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
  և: "ev",
  օ: "o",
  ֆ: "f"
}

/** A lower-case Armenian text in Latin by a table of its letters: ու is one vowel, u; other characters are kept. */
export const armenianInLatin = (text: string, letters: Readonly<Record<string, string>> = armenianLatin): string => {
  let latin = ""
  for (const character of text.replaceAll("ու", "u")) latin += letters[character] ?? character
  return latin
}
