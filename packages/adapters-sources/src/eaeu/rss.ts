import type { NoticeKind } from "@tenders/core"
import { HTMLElement, parse as parseHtml } from "node-html-parser"
import { cleanText } from "../fitText.ts"
import { absoluteEisUrl } from "./docTypes.ts"
import type { DraftBatch, NoticeDraft } from "./notice.ts"
import { rejectOnly } from "./notice.ts"
import { formatUtcSeconds, isPurchaseNumber, normaliseAmount, russianDateToUtc } from "./values.ts"
import { all, text } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

/** `<strong>Label: </strong>value<br/>` pairs of an RSS description (already entity-decoded HTML). */
export const descriptionFields = (html: string): ReadonlyMap<string, string> => {
  const fields = new Map<string, string>()
  let label: string | undefined
  let value = ""
  const flush = () => {
    if (label !== undefined && !fields.has(label)) fields.set(label, cleanText(value))
    label = undefined
    value = ""
  }
  for (const node of parseHtml(html).childNodes) {
    const tag = node instanceof HTMLElement ? node.tagName : undefined
    if (tag === "STRONG" || tag === "B") {
      flush()
      const t = cleanText(node.text)
      if (t.endsWith(":")) label = t.slice(0, -1).trim()
    } else if (tag === "BR") {
      flush()
    } else if (label !== undefined) {
      value += node.text
    }
  }
  flush()
  return fields
}

/** What the item's stage ("Этап размещения") says the procedure is at, as the kind of notice it stands for. */
const stages: ReadonlyMap<string, NoticeKind> = new Map([
  ["Подача заявок", "original"],
  ["Работа комиссии", "result"],
  ["Закупка завершена", "result"],
  ["Закупка отменена", "cancellation"],
  ["Определение поставщика завершено", "result"],
  ["Определение поставщика отменено", "cancellation"]
])

const currencyNames: ReadonlyMap<string, string> = new Map([
  ["Российский рубль", "RUB"],
  ["Евро", "EUR"],
  ["Доллар США", "USD"],
  ["Китайский юань", "CNY"]
])

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/** RFC-822 `pubDate` (`Mon, 10 Jun 2019 13:32:20 GMT`) → UTC. */
export const rfc822ToUtc = (raw: string | undefined): string | undefined => {
  const m =
    raw === undefined
      ? null
      : /(\d{1,2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? (GMT|UTC|UT|Z|[+-]\d{4})/u.exec(raw)
  if (m === null) return undefined
  const month = months.indexOf(m[2] ?? "")
  if (month < 0) return undefined
  const zone = m[7] ?? "GMT"
  const offset = /^[+-]/u.test(zone)
    ? (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3)))
    : 0
  const ms = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? "0"))
  return Number.isNaN(ms) ? undefined : formatUtcSeconds(ms - offset * 60_000)
}

const rssItem = (item: XmlNode, index: number): DraftBatch => {
  const link = absoluteEisUrl(text(item, "link"))
  const fields = descriptionFields(text(item, "description") ?? "")
  const itemTitle = text(item, "title")
  const number =
    (link === undefined ? undefined : /regNumber=(\d+)/u.exec(link)?.[1]) ??
    (itemTitle === undefined ? undefined : /№\s*(\d{11,19})\s*$/u.exec(itemTitle)?.[1])
  const where = `eaeu:rss:item[${index}]${number === undefined ? "" : `:${number}`}`
  if (number === undefined || !isPurchaseNumber(number)) return rejectOnly(where, "no purchase number in link or title")
  const title = fields.get("Наименование объекта закупки") ?? itemTitle
  if (title === undefined || title === "") return rejectOnly(where, "no title")
  const published = rfc822ToUtc(text(item, "pubDate")) ?? russianDateToUtc(fields.get("Размещено"), "startOfDay")
  const updated = fields.get("Обновлено")
  const stage = stages.get(fields.get("Этап размещения") ?? "") ?? "original"
  // An "Обновлено" date after "Размещено" while still open is only an amendment candidate (the guide, 3.4).
  const kind =
    stage === "original" && updated !== undefined && updated !== fields.get("Размещено") ? "amendment" : stage
  const budget = normaliseAmount(fields.get("Начальная цена контракта")) ?? null
  const law = fields.get("Размещение выполняется по") ?? ""
  const currency =
    currencyNames.get(fields.get("Валюта") ?? "") ??
    // Default to RUB only for a 44-FZ (or PP RF 615) item that shows a price and names no currency.
    (budget !== null && !law.includes("223") ? "RUB" : null)
  const url = link ?? `https://zakupki.gov.ru/epz/order/extendedsearch/results.html?searchString=${number}`
  const draft: NoticeDraft = {
    kind,
    purchaseNumber: number,
    version: null,
    reason: null,
    title,
    buyer: fields.get("Наименование Заказчика") ?? text(item, "author") ?? null,
    region: null,
    budget,
    currency,
    deadline: russianDateToUtc(fields.get("Окончание подачи заявок"), "endOfDay") ?? null,
    publishedAt: published ?? null,
    url,
    okpd2Codes: [],
    lots: [{ title, budget, currency, cpvCodes: [] }],
    docsUrl: url.includes("/common-info.html") ? [url.replace("/common-info.html", "/documents.html")] : []
  }
  return { drafts: [{ where, draft }], rejected: [] }
}

/** Every `<item>` of an EIS search RSS feed as drafts. */
export const rssItems = (rootName: string, root: XmlNode): DraftBatch => {
  if (rootName !== "rss") return rejectOnly("eaeu:rss", `expected an <rss> feed, got <${rootName}>`)
  const batches = all(root, "channel", "item").map(rssItem)
  return { drafts: batches.flatMap((b) => b.drafts), rejected: batches.flatMap((b) => b.rejected) }
}
