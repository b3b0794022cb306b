/** The writing systems the search distinguishes; each has its own stemming configuration. */
export type Script = "latin" | "cyrillic" | "armenian" | "other"

/** A word of a free-text query with the script it is written in. */
export interface QueryToken {
  readonly text: string
  readonly script: Script
}

const wordPattern = /[\p{L}\p{N}]+/gu

/** The script of a word, decided by its first letter. */
export const scriptOf = (word: string): Script => {
  if (/\p{Script=Armenian}/u.test(word)) return "armenian"
  if (/\p{Script=Cyrillic}/u.test(word)) return "cyrillic"
  if (/\p{Script=Latin}/u.test(word)) return "latin"
  return "other"
}

/** Splits a free-text query into words (letters and digits only); operators and punctuation are dropped. */
export const tokenize = (q: string): ReadonlyArray<QueryToken> =>
  Array.from(q.normalize("NFC").matchAll(wordPattern), (m) => m[0].toLowerCase())
    .slice(0, 32)
    .map((text) => ({ text, script: scriptOf(text) }))

/** The words of a document grouped by script, so each group is stemmed with its own configuration. */
export const splitByScript = (text: string): Record<Script, string> => {
  const groups: Record<Script, Array<string>> = { latin: [], cyrillic: [], armenian: [], other: [] }
  for (const m of text.normalize("NFC").matchAll(wordPattern)) groups[scriptOf(m[0])].push(m[0])
  return {
    latin: groups.latin.join(" "),
    cyrillic: groups.cyrillic.join(" "),
    armenian: groups.armenian.join(" "),
    other: groups.other.join(" ")
  }
}
