import type { ParsedNotice, ParseResult } from "@tenders/core"
import { Effect, Predicate } from "effect"
import { parseArmepsDetail } from "./armeps.ts"
import { parseEauctionDetail } from "./eauction.ts"
import type { PageFetcher } from "./feedHttp.ts"

type DetailParser = (html: string, options: { readonly url: string }) => ParseResult

const ARMEPS = /^https?:\/\/(?:www\.)?armeps\.am\/epps\/cft\/listContractDocuments\.do\?/u
const EAUCTION = /^https?:\/\/eauction\.armeps\.am\/(?:hy|ru|en)\/public\/tender_details\//u

/** The parser for a linked ARMEPS contract-documents / eAuction tender page; null for other links (files). */
export const detailParserFor = (url: string): DetailParser | null =>
  ARMEPS.test(url) ? parseArmepsDetail : EAUCTION.test(url) ? parseEauctionDetail : null

const rejectedDetail = (url: string, reason: string): ParseResult => ({ notices: [], rejected: [{ where: url, reason }] })

/**
 * Reads the ARMEPS / eAuction pages the given listing notices link to (each URL once, in order), one ParseResult
 * per page. A page that cannot be read or holds nothing recognisable becomes a rejection, never a failure.
 */
export const readDetails = (fetch: PageFetcher, notices: ReadonlyArray<ParsedNotice>): Effect.Effect<ReadonlyArray<ParseResult>> => {
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
