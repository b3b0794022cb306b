import type { ParseResult } from "@tenders/core"
import { Result } from "effect"
import { type AttemptFailure, type Reply, replyText, retryable, statusFailure } from "../http/AttemptFailure.ts"
import { fromRuDate, toRuDate } from "./feedCursor.ts"
import { parseEisRss } from "./parse.ts"
import { descriptionFields } from "./rss.ts"
import { all, readXml, text } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

/** One RSS page as the feed uses it: parsed notices, item count, latest update date (YYYY-MM-DD) seen. */
export interface RssPage {
  readonly result: ParseResult
  readonly items: number
  readonly latest: string | undefined
}

/** Query parameters of one public-search RSS page: 44-FZ + 223-FZ, oldest update first, from a day. */
export const rssParams = (updatedFrom: string, pageNumber: number): Record<string, string> => ({
  fz44: "on",
  fz223: "on",
  sortBy: "UPDATE_DATE",
  sortDirection: "true",
  recordsPerPage: "_50",
  pageNumber: String(pageNumber),
  updateDateFrom: toRuDate(updatedFrom)
})

const itemDay = (item: XmlNode): string | undefined => {
  const fields = descriptionFields(text(item, "description") ?? "")
  return fromRuDate(fields.get("Обновлено")) ?? fromRuDate(fields.get("Размещено"))
}

/** Reads an RSS reply; anything but an `<rss>` document (anti-bot page, garbage, truncation) is retried. */
export const readRssReply = (reply: Reply): Result.Result<RssPage, AttemptFailure> => {
  const byStatus = statusFailure(reply)
  if (byStatus !== undefined) return Result.fail(byStatus)
  const xml = replyText(reply)
  const read = readXml(xml)
  if (read._tag === "Error") return Result.fail(retryable(`unreadable RSS: ${read.reason}`))
  if (read.name !== "rss") return Result.fail(retryable(`not an RSS feed: <${read.name}>`))
  const items = all(read.node, "channel", "item")
  const latest = items
    .map(itemDay)
    .reduce<string | undefined>(
      (max, day) => (day !== undefined && (max === undefined || day > max) ? day : max),
      undefined
    )
  return Result.succeed({ result: parseEisRss(xml), items: items.length, latest })
}
