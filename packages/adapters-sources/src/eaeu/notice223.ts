import type { RecordLot } from "@tenders/core"
import { card223Url } from "./docTypes.ts"
import { placeholderTitle, rejectOnly } from "./notice.ts"
import type { DraftBatch, NoticeDraft } from "./notice.ts"
import { currencyOf, isPurchaseNumber, normaliseAmount, okpd2Of, sumAmounts, toUtc, unique } from "./values.ts"
import { all, childNames, descendants, descendantTexts, first, text, textAt } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

// 223-FZ date-times are written without a UTC offset. Following the brief and the guide's fallback we read them as
// Moscow time (UTC+3); customer/mainInfo/timeZone/offset is the customer's display zone and is NOT applied.
const utc223 = (raw: string | undefined, rule: "startOfDay" | "endOfDay"): string | null => toUtc(raw, rule) ?? null

/** The `…Data` payloads of a 223-FZ document (`body/item/purchaseNotice<Type>Data`), or the root itself. */
const payloads = (root: XmlNode): ReadonlyArray<XmlNode> => {
  const items = all(root, "body", "item")
  const data = items.flatMap((item) => {
    const name = childNames(item).find((n) => n.endsWith("Data"))
    return name === undefined ? [] : all(item, name)
  })
  return data.length > 0 ? data : [root]
}

const registrationNumber = (data: XmlNode): string | undefined =>
  textAt(data, [["registrationNumber"], ["purchaseRegNum"], ["purchaseInfo", "purchaseNoticeNumber"]])

const lots223 = (data: XmlNode, title: string): ReadonlyArray<typeof RecordLot.Type> =>
  all(data, "lots", "lot")
    .filter((lot) => text(lot, "cancelled") !== "true")
    .map((lot) => ({
      title: text(lot, "lotData", "subject") ?? title,
      budget: normaliseAmount(text(lot, "lotData", "initialSum")) ?? null,
      currency:
        currencyOf(
          textAt(lot, [
            ["lotData", "currency", "code"],
            ["lotData", "currency", "digitalCode"]
          ])
        ) ?? null,
      cpvCodes: []
    }))

/** Total budget: the exact sum of the lots' initial sums when all lots share one currency, else null. */
const budget223 = (lots: ReadonlyArray<typeof RecordLot.Type>): { budget: string | null; currency: string | null } => {
  const currencies = unique(lots.flatMap((l) => l.currency ?? []))
  const budgets = lots.flatMap((l) => l.budget ?? [])
  if (lots.length === 0 || budgets.length !== lots.length || currencies.length > 1) {
    return { budget: null, currency: currencies.length === 1 ? (currencies[0] ?? null) : null }
  }
  return { budget: sumAmounts(budgets) ?? null, currency: currencies[0] ?? null }
}

const attachmentUrls = (data: XmlNode): ReadonlyArray<string> =>
  unique(
    [...all(data, "attachments"), ...all(data, "documents")].flatMap((a) =>
      descendantTexts(a, "url").filter((u) => /^https?:\/\//u.test(u))
    )
  )

const eisUrl = (data: XmlNode, number: string): string => {
  const url = text(data, "urlEIS")
  return url !== undefined && /^https?:\/\//u.test(url) ? url : card223Url(number)
}

/** A 223-FZ purchase notice (`purchaseNotice*`) or a purchase rejection (`purchaseRejection`). */
export const notice223 = (rootName: string, root: XmlNode, rejection: boolean): DraftBatch => {
  const batches = payloads(root).map((data): DraftBatch => {
    const number = registrationNumber(data)
    const where = `eaeu:${rootName}:${number ?? "?"}`
    if (number === undefined) return rejectOnly(where, "no registrationNumber")
    if (!isPurchaseNumber(number)) return rejectOnly(where, `registrationNumber "${number}" is not an EIS number`)
    const rawVersion = text(data, "version")
    const version = rawVersion !== undefined && /^\d{1,9}$/u.test(rawVersion) ? Number(rawVersion) : null
    const title = textAt(data, [["name"], ["purchaseInfo", "name"]]) ?? placeholderTitle(number)
    const mainInfo = first(data, "customer", "mainInfo")
    const common = {
      purchaseNumber: number,
      version,
      title,
      buyer: text(mainInfo, "fullName") ?? text(data, "placer", "mainInfo", "fullName") ?? null,
      region: text(mainInfo, "region") ?? null,
      publishedAt: utc223(textAt(data, [["publicationDateTime"], ["createDateTime"]]), "startOfDay"),
      url: eisUrl(data, number),
      docsUrl: attachmentUrls(data)
    }
    if (rejection) {
      const reason = textAt(data, [["rejectionReason"], ["reason"], ["cancellationReason"]]) ?? null
      const draft: NoticeDraft = {
        ...common,
        kind: "cancellation",
        reason,
        budget: null,
        currency: null,
        deadline: null,
        okpd2Codes: [],
        lots: []
      }
      return { drafts: [{ where, draft }], rejected: [] }
    }
    const amended = (version !== null && version > 1) || text(data, "modificationDescription") !== undefined
    const lots = lots223(data, title)
    const draft: NoticeDraft = {
      ...common,
      kind: amended ? "amendment" : "original",
      reason: amended ? (text(data, "modificationDescription") ?? null) : null,
      ...budget223(lots),
      deadline: utc223(text(data, "submissionCloseDateTime"), "endOfDay"),
      okpd2Codes: unique(
        descendants(data, "okpd2")
          .flatMap((c) => text(c, "code") ?? [])
          .flatMap((c) => okpd2Of(c) ?? [])
      ),
      lots
    }
    return { drafts: [{ where, draft }], rejected: [] }
  })
  return {
    drafts: batches.flatMap((b) => b.drafts),
    rejected: batches.flatMap((b) => b.rejected)
  }
}
