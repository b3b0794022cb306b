import type { ParseResult } from "@tenders/core"
import { fromRuDate, toRuDate } from "./feedCursor.ts"
import { bodyText, ok, retry, statusVerdict } from "./feedHttp.ts"
import type { Reply, Verdict } from "./feedHttp.ts"
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
export const readRssReply = (reply: Reply): Verdict<RssPage> => {
  const byStatus = statusVerdict(reply.status)
  if (byStatus !== undefined) return byStatus
  const xml = bodyText(reply)
  const read = readXml(xml)
  if (read._tag === "Error") return retry(`unreadable RSS: ${read.reason}`)
  if (read.name !== "rss") return retry(`not an RSS feed: <${read.name}>`)
  const items = all(read.node, "channel", "item")
  const latest = items
    .map(itemDay)
    .reduce<string | undefined>(
      (max, day) => (day !== undefined && (max === undefined || day > max) ? day : max),
      undefined
    )
  return ok({ result: parseEisRss(xml), items: items.length, latest })
}
