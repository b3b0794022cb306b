import type { MatchToken, TenderFacts } from "../FilterMatch.ts"
import type { TenderRecord } from "../Tender.ts"
import { type QueryToken, tenderText } from "../TextQuery.ts"

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The in-memory "lexemes" of a tender: its lower-cased words (the fakes have no stemmer). */
export const lexemesOf = (record: TenderRecord): ReadonlySet<string> =>
  new Set(Object.values(tenderText(record)).flatMap(words))

/** The lower-cased words of a tender's title (the first ranking tier of search). */
export const titleWords = (record: TenderRecord): ReadonlySet<string> => new Set(words(record.title))

/** A tender as the matcher sees it, in memory. */
export const memoryFacts = (record: TenderRecord): TenderFacts => ({ record, lexemes: lexemesOf(record) })

/** With no stemmer, every query word matches as a prefix of a tender's words. */
export const resolveWords = (tokens: ReadonlyArray<QueryToken>): ReadonlyArray<MatchToken> =>
  tokens.map((token) => ({ exact: [token.text], prefix: [token.text] }))

/** A UUID-shaped id for the n-th row of a fake (deterministic, valid for the UUID-branded ids). */
export const memoryUuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`
