import type { ParsedNotice, ParseResult, RejectedNotice } from "@tenders/core"
import { Predicate, Result, Schema } from "effect"
import { toParsedNotice } from "../parsedNotice.ts"
import { budgetOf, lotsOf } from "./budget.ts"
import { toAlpha2 } from "./countries.ts"
import { earliestDeadline, startOfDayUtc } from "./dates.ts"
import { classifyNotice } from "./kind.ts"
import { cpvCodes, firstString, localizedFirst, strings } from "./values.ts"

type Fields = { readonly [k: string]: unknown }

/** `00512345-2026` -> `512345-2026`: leading zeros of the first part stripped. */
export const normalizePublicationNumber = (raw: string): string => {
  const trimmed = raw.trim()
  const match = /^0*(\d+)-(\d+)$/u.exec(trimmed)
  return match === null ? trimmed : `${match[1]}-${match[2]}`
}

const httpUrl = (value: unknown): string | null => {
  const url = firstString(value)
  return url !== null && /^https?:\/\//u.test(url) ? url : null
}

/** `links.<kind>.ENG`, else the first http(s) link of that kind. */
const link = (links: unknown, kind: string, englishOnly: boolean): string | null => {
  if (!Predicate.isObject(links)) return null
  const byLanguage = links[kind]
  if (!Predicate.isObject(byLanguage)) return null
  const english = httpUrl(byLanguage["ENG"])
  if (english !== null || englishOnly) return english
  for (const value of Object.values(byLanguage)) {
    const url = httpUrl(value)
    if (url !== null) return url
  }
  return null
}

/** First NUTS code of `place-of-performance` (longer than 3 characters, so never a country code). */
const regionOf = (value: unknown): string | null =>
  strings(value).find((code) => code.length > 3 && /^[A-Z]{2}[A-Z0-9]{1,3}$/u.test(code)) ?? null

/** `document-url-lot[0]` -> `submission-url-lot[0]` -> `links.pdf.ENG`, as a 0/1-element list. */
const docsUrlOf = (notice: Fields): Array<string> => {
  const url =
    firstString(notice["document-url-lot"]) ??
    firstString(notice["submission-url-lot"]) ??
    link(notice["links"], "pdf", true)
  return url === null ? [] : [url]
}

const versionOf = (value: unknown): number | null => {
  const text = firstString(value)
  return text !== null && /^\d{1,9}$/u.test(text) ? Number(text) : null
}

type Outcome =
  | { readonly _tag: "notice"; readonly notice: ParsedNotice }
  | { readonly _tag: "rejected"; readonly rejected: RejectedNotice }
  | { readonly _tag: "skipped" }

const reject = (where: string, reason: string): Outcome => ({ _tag: "rejected", rejected: { where, reason } })

/** Maps one element of `notices` (FIELD-GUIDE 1.4 / 1.5). */
const parseNotice = (raw: unknown, index: number): Outcome => {
  const at = `ted notices[${index}]`
  if (!Predicate.isObject(raw)) return reject(at, "notice is not an object")
  const rawNumber = firstString(raw["publication-number"])
  if (rawNumber === null) return reject(at, "missing publication-number")
  const publicationNumber = normalizePublicationNumber(rawNumber)
  const where = `${at} ${publicationNumber}`
  const classification = classifyNotice(raw)
  if (classification === "skip") return { _tag: "skipped" }
  const languages = strings(raw["official-language"])
  const title = localizedFirst(raw["notice-title"], languages) ?? localizedFirst(raw["title-proc"], languages)
  if (title === null) return reject(where, "missing notice-title and title-proc")
  const countryCode = firstString(raw["buyer-country"])
  const { budget, currency } = budgetOf(raw, classification.kind === "result")
  const deadline =
    earliestDeadline(
      strings(raw["deadline-receipt-tender-date-lot"]),
      strings(raw["deadline-receipt-tender-time-lot"])
    ) ??
    earliestDeadline(
      strings(raw["deadline-receipt-request-date-lot"]),
      strings(raw["deadline-receipt-request-time-lot"])
    )
  const publicationDate = firstString(raw["publication-date"])
  const notice = toParsedNotice({
    kind: classification.kind,
    procedureKey: firstString(raw["procedure-identifier"]) ?? publicationNumber,
    version: versionOf(raw["notice-version"]),
    reason: classification.reason,
    record: {
      id: `ted-${publicationNumber}`,
      source: "ted",
      nativeId: publicationNumber,
      title,
      buyer: localizedFirst(raw["buyer-name"], languages) ?? localizedFirst(raw["organisation-name-buyer"], languages),
      country: countryCode === null ? null : toAlpha2(countryCode),
      region: regionOf(raw["place-of-performance"]),
      budget,
      currency: budget === null ? null : currency,
      deadline,
      publishedAt: publicationDate === null ? null : startOfDayUtc(publicationDate),
      url: link(raw["links"], "html", false) ?? `https://ted.europa.eu/en/notice/-/detail/${publicationNumber}`,
      cpvCodes: cpvCodes(raw["main-classification-proc"], raw["classification-cpv"]),
      okpd2Codes: [],
      lots: lotsOf(raw, languages),
      docsUrl: docsUrlOf(raw)
    }
  })
  return Result.isSuccess(notice)
    ? { _tag: "notice", notice: notice.success }
    : reject(where, `invalid record: ${notice.failure}`)
}

/** A JSON body that is a TED search response: its raw notices, the next iteration token, whether TED timed out. */
export interface TedSearchResponse {
  readonly notices: ReadonlyArray<unknown>
  readonly nextToken: string | null
  readonly timedOut: boolean
}

const SearchBody = Schema.Struct({
  notices: Schema.Array(Schema.Unknown),
  timedOut: Schema.optional(Schema.Unknown)
})
const decodeSearchBody = Schema.decodeUnknownResult(SearchBody)

/** Reads a JSON body as a TED search response, or says why it is not one (an error body, a proxy's page). */
export const readTedSearchResponse = (body: unknown): Result.Result<TedSearchResponse, string> =>
  Result.mapBoth(decodeSearchBody(body), {
    onFailure: () => {
      const message = Predicate.isObject(body) ? firstString(body["message"]) : null
      return `not a TED search response (no notices array)${message === null ? "" : `: ${message}`}`
    },
    onSuccess: (read) => ({ notices: read.notices, nextToken: tedNextToken(body), timedOut: read.timedOut === true })
  })

/** Parses the raw `notices` of a TED search response (FIELD-GUIDE 1.4 / 1.5). */
export const parseTedNotices = (raw: ReadonlyArray<unknown>): ParseResult => {
  const notices: Array<ParsedNotice> = []
  const rejected: Array<RejectedNotice> = []
  raw.forEach((item, index) => {
    const outcome = parseNotice(item, index)
    if (outcome._tag === "notice") notices.push(outcome.notice)
    else if (outcome._tag === "rejected") rejected.push(outcome.rejected)
  })
  return { notices, rejected }
}

/** Parses one TED Search API v3 response body (already JSON-parsed); a body that is not one is one rejection. */
export const parseTedSearchResponse = (body: unknown): ParseResult =>
  Result.match(readTedSearchResponse(body), {
    onFailure: (reason) => ({ notices: [], rejected: [{ where: "ted response", reason }] }),
    onSuccess: (response) => parseTedNotices(response.notices)
  })

/** The `iterationNextToken` of a TED search response, null when missing or empty. */
export const tedNextToken = (body: unknown): string | null => {
  if (!Predicate.isObject(body)) return null
  const token = body["iterationNextToken"]
  return Predicate.isString(token) && token.trim().length > 0 ? token : null
}
