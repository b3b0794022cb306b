import type { ParsedNotice, ParseResult, RejectedNotice } from "@tenders/core"
import { Effect, Predicate, Result } from "effect"
import { toParsedNotice } from "../parsedNotice.ts"
import { parseArmepsDetail } from "./armeps.ts"
import { parseEauctionDetail } from "./eauction.ts"
import type { PageFetcher } from "./feedHttp.ts"
import { parseInvitationDocx } from "./invitation.ts"
import type { RecordLot } from "./invitation.ts"
import { isInvitationDocx } from "./invitationHttp.ts"

type DetailParser = (html: string, options: { readonly url: string }) => ParseResult

const ARMEPS = /^https?:\/\/(?:www\.)?armeps\.am\/epps\/cft\/listContractDocuments\.do\?/u
const EAUCTION = /^https?:\/\/eauction\.armeps\.am\/(?:hy|ru|en)\/public\/tender_details\//u

/** The parser for a linked ARMEPS contract-documents / eAuction tender page; null for other links (files). */
export const detailParserFor = (url: string): DetailParser | null =>
  ARMEPS.test(url) ? parseArmepsDetail : EAUCTION.test(url) ? parseEauctionDetail : null

const rejectedDetail = (url: string, reason: string): ParseResult => ({
  notices: [],
  rejected: [{ where: url, reason }]
})

/**
 * Reads the ARMEPS / eAuction pages the given listing notices link to (each URL once, in order), one ParseResult
 * per page. A page that cannot be read or holds nothing recognisable becomes a rejection, never a failure.
 */
export const readDetails = (
  fetch: PageFetcher,
  notices: ReadonlyArray<ParsedNotice>
): Effect.Effect<ReadonlyArray<ParseResult>> => {
  const urls = [...new Set(notices.map((n) => n.record.url))]
  return Effect.forEach(urls, (url) => {
    const parse = detailParserFor(url)
    if (parse === null) return Effect.succeed(null)
    return fetch(url).pipe(
      Effect.map((fetched): ParseResult => {
        if (fetched._tag === "notFound") return rejectedDetail(url, "detail page not found (HTTP 404)")
        const result = parse(fetched.html, { url })
        return result.notices.length + result.rejected.length === 0
          ? rejectedDetail(url, "detail page has no recognisable fields")
          : result
      }),
      Effect.catch((error) => Effect.succeed(rejectedDetail(url, `detail page unavailable: ${error.message}`)))
    )
  }).pipe(Effect.map((results) => results.filter(Predicate.isNotNull)))
}

/** The lots of one invitation DOCX, or why they could not be read. */
const readInvitation = (
  fetch: PageFetcher,
  url: string
): Effect.Effect<Result.Result<ReadonlyArray<RecordLot>, string>> =>
  fetch(url).pipe(
    Effect.map((fetched) =>
      fetched._tag === "notFound"
        ? Result.fail("invitation document not found (HTTP 404)")
        : Result.mapError(parseInvitationDocx(fetched.bytes), (reason) => `invitation document unreadable: ${reason}`)
    ),
    Effect.catch((error) => Effect.succeed(Result.fail(`invitation document unavailable: ${error.message}`)))
  )

/**
 * Fills `lots` of the listing notices whose resource is an invitation DOCX (each URL read once). A document that
 * cannot be read or holds no lot table is a rejection; its notice is kept unchanged.
 */
export const readInvitationLots = (
  fetch: PageFetcher,
  notices: ReadonlyArray<ParsedNotice>
): Effect.Effect<ParseResult> => {
  const urls = [...new Set(notices.map((n) => n.record.url).filter(isInvitationDocx))]
  return Effect.forEach(urls, (url) => Effect.map(readInvitation(fetch, url), (lots) => [url, lots] as const)).pipe(
    Effect.map((read) => {
      const byUrl = new Map(read)
      const rejected: Array<RejectedNotice> = []
      for (const [url, lots] of read) if (Result.isFailure(lots)) rejected.push({ where: url, reason: lots.failure })
      const filled = notices.map((notice) => {
        const lots = byUrl.get(notice.record.url)
        if (lots === undefined || Result.isFailure(lots)) return notice
        const decoded = toParsedNotice({ ...notice, record: { ...notice.record, lots: lots.success } })
        if (Result.isSuccess(decoded)) return decoded.success
        rejected.push({ where: notice.record.url, reason: `invitation lots invalid: ${decoded.failure}` })
        return notice
      })
      return { notices: filled, rejected }
    })
  )
}
