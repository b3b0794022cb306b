import type { TenderRecord } from "./Tender.ts"
import { subjectOf } from "./TenderRead.ts"

/** The writing systems the search distinguishes; each has its own stemming configuration. */
export type Script = "latin" | "cyrillic" | "armenian" | "other"

/** A word of a free-text query with the script it is written in. */
export interface QueryToken {
  readonly text: string
  readonly script: Script
}

/**
 * How a query word of each script matches: stemmed with its language's configuration, and (for Armenian, whose
 * stemmer keeps plurals, and for words of no stemmed script, such as numbers and codes) also as a prefix of the
 * unstemmed words. The store's SQL and its token resolution both read this table.
 */
export const wordMatch: Readonly<
  Record<Script, { readonly stemming: "english" | "russian" | "armenian" | undefined; readonly prefix: boolean }>
> = {
  latin: { stemming: "english", prefix: false },
  cyrillic: { stemming: "russian", prefix: false },
  armenian: { stemming: "armenian", prefix: true },
  other: { stemming: undefined, prefix: true }
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

/**
 * The text a tender is found by, in the store's weight order: its title; its lot names; its buyer and region; its
 * native id and codes.
 */
export const tenderText = (record: TenderRecord) => ({
  title: record.title,
  lots: subjectOf(record) ?? record.lots.map((lot) => lot.title).join(" "),
  parties: [record.buyer ?? "", record.region ?? ""].join(" "),
  codes: [record.nativeId, ...record.cpvCodes, ...record.okpd2Codes].join(" ")
})
