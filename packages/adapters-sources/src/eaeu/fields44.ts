import { okpd2Of, toUtc, unique } from "./values.ts"
import { descendants, descendantTexts, text, textAt, texts } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

// Shared readers for 44-FZ documents. Each tries the 2020+ layout (commonInfo/…, notificationInfo/…) first,
// then the older flat fcs* layout (purchaseNumber, docPublishDate, lot/…).

/** The purchase number (`commonInfo/purchaseNumber`, old: `purchaseNumber`). */
export const purchaseNumber44 = (doc: XmlNode): string | undefined =>
  textAt(doc, [["commonInfo", "purchaseNumber"], ["purchaseNumber"]])

/** `versionNumber` as an integer; null when absent or not a positive integer. */
export const version44 = (doc: XmlNode): number | null => {
  const raw = text(doc, "versionNumber")
  return raw !== undefined && /^\d{1,9}$/u.test(raw) ? Number(raw) : null
}

/** The document's own publication instant in UTC. */
export const publishedAt44 = (doc: XmlNode): string | undefined =>
  toUtc(
    textAt(doc, [
      ["commonInfo", "publishDTInEIS"],
      ["docPublishDate"],
      ["publishDate"],
      ["commonInfo", "publishDTInETP"]
    ]),
    "startOfDay"
  )

/** `commonInfo/href` (old: `href`). */
export const href44 = (doc: XmlNode): string | undefined => textAt(doc, [["commonInfo", "href"], ["href"]])

/** `purchaseObjectInfo` (the purchase name), when the document carries it. */
export const title44 = (doc: XmlNode): string | undefined =>
  textAt(doc, [["commonInfo", "purchaseObjectInfo"], ["purchaseObjectInfo"]])

/** Customers' full names (joint purchases: all, joined by `; `), else the placing organisation / publisher. */
export const buyer44 = (doc: XmlNode): string | undefined => {
  const customers = unique(descendants(doc, "customer").flatMap((c) => text(c, "fullName") ?? []))
  if (customers.length > 0) return customers.join("; ")
  return textAt(doc, [
    ["purchaseResponsibleInfo", "responsibleOrgInfo", "fullName"],
    ["purchaseResponsible", "responsibleOrg", "fullName"],
    ["protocolPublisherInfo", "publisherOrg", "fullName"],
    ["protocolPublisher", "publisherOrg", "fullName"]
  ])
}

/** Attachment download URLs (`attachmentsInfo/attachmentInfo/url`, old `attachments/attachment/url`). */
export const attachmentUrls44 = (doc: XmlNode): ReadonlyArray<string> =>
  unique(
    [...descendants(doc, "attachmentInfo"), ...descendants(doc, "attachment")]
      .flatMap((a) => text(a, "url") ?? [])
      .filter((url) => /^https?:\/\//u.test(url))
  )

/**
 * OKPD2 codes of the purchase objects (`OKPD2/OKPDCode`, old `OKPD2/code`) plus the OKPD2 part of KTRU codes,
 * de-duplicated in document order; the IKZ's coarse OKPD2 (`IKZInfo/OKPD2Info`) only when objects carry none.
 */
export const okpd2Codes44 = (doc: XmlNode): ReadonlyArray<string> => {
  const objects = descendants(doc, "purchaseObject")
  const fromObjects = objects.flatMap((o) => [
    ...descendants(o, "OKPD2").flatMap((c) => texts(c, "OKPDCode").concat(texts(c, "code"))),
    ...descendants(o, "KTRU").flatMap((k) => texts(k, "code"))
  ])
  const codes = unique(fromObjects.flatMap((c) => okpd2Of(c) ?? []))
  if (codes.length > 0) return codes
  return unique(descendantTexts(doc, "OKPDCode").flatMap((c) => okpd2Of(c) ?? []))
}
