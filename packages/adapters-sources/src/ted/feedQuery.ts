import { DateTime, Option, Predicate, Schema } from "effect"
import { firstString } from "./values.ts"

/** Every search field parse.ts (and its helpers) reads; TED answers 400 to unknown names, so keep it exact. */
export const TED_SEARCH_FIELDS: ReadonlyArray<string> = [
  "publication-number",
  "publication-date",
  "notice-type",
  "form-type",
  "notice-version",
  "procedure-identifier",
  "official-language",
  "notice-title",
  "title-proc",
  "title-lot",
  "identifier-lot",
  "buyer-name",
  "organisation-name-buyer",
  "buyer-country",
  "place-of-performance",
  "classification-cpv",
  "main-classification-proc",
  "main-classification-lot",
  "estimated-value-proc",
  "estimated-value-cur-proc",
  "estimated-value-lot",
  "estimated-value-cur-lot",
  "estimated-value-glo",
  "estimated-value-cur-glo",
  "total-value",
  "total-value-cur",
  "deadline-receipt-tender-date-lot",
  "deadline-receipt-tender-time-lot",
  "deadline-receipt-request-date-lot",
  "deadline-receipt-request-time-lot",
  "document-url-lot",
  "submission-url-lot",
  "change-notice-version-identifier",
  "change-reason-code",
  "links"
]

/** The TED feed's resume point: an open iteration token (or null), the publication day (`YYYYMMDD`) to query from. */
export interface TedCursor {
  readonly token: string | null
  readonly from: string
}

const CursorJson = Schema.fromJsonString(
  Schema.Struct({
    token: Schema.NullOr(Schema.String),
    from: Schema.String.check(Schema.isPattern(/^\d{8}$/u))
  })
)
const decodeCursor = Schema.decodeUnknownOption(CursorJson)

/** Reads a cursor this feed wrote; null when absent or not one of ours. An empty token counts as none. */
export const decodeTedCursor = (raw: string | null): TedCursor | null => {
  if (raw === null) return null
  const cursor = Option.getOrNull(decodeCursor(raw))
  if (cursor === null) return null
  return { token: cursor.token !== null && cursor.token.trim().length > 0 ? cursor.token : null, from: cursor.from }
}

/** Serialises a cursor as `{"token":…,"from":"YYYYMMDD"}`. */
export const encodeTedCursor = (cursor: TedCursor): string => JSON.stringify({ token: cursor.token, from: cursor.from })

/** A UTC date as TED's expert-query day `YYYYMMDD`. */
export const tedDay = (date: DateTime.DateTime): string => DateTime.formatIsoDateUtc(date).replaceAll("-", "")

/** The day of a `publication-date` value (`2026-07-13+02:00` -> `20260713`), as TED states it; null when unreadable. */
const publicationDay = (value: unknown): string | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/u.exec(firstString(value) ?? "")
  return match === null ? null : `${match[1]}${match[2]}${match[3]}`
}

/** The latest publication day among `notices`, never earlier than `from`. */
export const latestDay = (notices: ReadonlyArray<unknown>, from: string): string =>
  notices.reduce<string>((latest, notice) => {
    const day = Predicate.isObject(notice) ? publicationDay(notice["publication-date"]) : null
    return day !== null && day > latest ? day : latest
  }, from)

/** The search request body of one ITERATION call: all notices published on or after `from`, oldest first. */
export const tedSearchBody = (from: string, token: string | null, limit: number): Record<string, unknown> => ({
  query: `publication-date >= ${from} SORT BY publication-date ASC`,
  fields: TED_SEARCH_FIELDS,
  limit,
  scope: "ALL",
  paginationMode: "ITERATION",
  ...(token === null ? {} : { iterationNextToken: token }),
  onlyLatestVersions: false
})
