import type { RecordLot } from "@tenders/core"
import { card44Url, docs44Url, segmentOf } from "./docTypes.ts"
import {
  attachmentUrls44,
  buyer44,
  href44,
  okpd2Codes44,
  publishedAt44,
  purchaseNumber44,
  title44,
  version44
} from "./fields44.ts"
import { placeholderTitle, rejectOnly } from "./notice.ts"
import type { DraftBatch } from "./notice.ts"
import { currencyOf, isPurchaseNumber, normaliseAmount, toUtc } from "./values.ts"
import { all, text, textAt } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

const maxPricePaths: ReadonlyArray<ReadonlyArray<string>> = [
  ["notificationInfo", "contractConditionsInfo", "maxPriceInfo", "maxPrice"],
  ["lot", "maxPrice"],
  ["lots", "lot", "maxPrice"]
]

const currencyPaths: ReadonlyArray<ReadonlyArray<string>> = [
  ["notificationInfo", "contractConditionsInfo", "maxPriceInfo", "currency", "code"],
  ["lot", "currency", "code"],
  ["lots", "lot", "currency", "code"]
]

const deadlinePaths: ReadonlyArray<ReadonlyArray<string>> = [
  ["notificationInfo", "procedureInfo", "collectingInfo", "endDT"],
  ["procedureInfo", "collectingInfo", "endDT"],
  ["procedureInfo", "collecting", "endDate"]
]

/**
 * Lots: one per customer in joint purchases (each `customerRequirementInfo` with its own maxPrice), one per
 * `lots/lot` in old multi-lot fcs documents, otherwise the single lot of the notice.
 */
const lots44 = (
  doc: XmlNode,
  title: string,
  budget: string | null,
  currency: string | null
): ReadonlyArray<typeof RecordLot.Type> => {
  const customers = all(doc, "notificationInfo", "customerRequirementsInfo", "customerRequirementInfo")
  if (customers.length > 1) {
    return customers.map((c) => ({
      title: `${title} (${text(c, "customer", "fullName") ?? "заказчик"})`,
      budget: normaliseAmount(text(c, "contractConditionsInfo", "maxPriceInfo", "maxPrice")) ?? null,
      currency,
      cpvCodes: []
    }))
  }
  const oldLots = all(doc, "lots", "lot")
  if (oldLots.length > 1) {
    return oldLots.map((lot, i) => ({
      title: textAt(lot, [["lotObjectInfo"], ["purchaseObjectInfo"]]) ?? `${title} (лот ${i + 1})`,
      budget: normaliseAmount(text(lot, "maxPrice")) ?? null,
      currency: currencyOf(text(lot, "currency", "code")) ?? currency,
      cpvCodes: []
    }))
  }
  return [{ title, budget, currency, cpvCodes: [] }]
}

/** A 44-FZ notification (epNotification*2020, fcsNotification*, pprf615Notification*): original or amendment. */
export const notice44 = (rootName: string, doc: XmlNode, typeSegment: string | undefined): DraftBatch => {
  const number = purchaseNumber44(doc)
  const where = `eaeu:${rootName}:${number ?? "?"}`
  if (number === undefined) return rejectOnly(where, "no purchaseNumber")
  if (!isPurchaseNumber(number))
    return rejectOnly(where, `purchaseNumber "${number}" is not an EIS registration number`)
  const version = version44(doc)
  const modification = textAt(doc, [
    ["modificationInfo", "info"],
    ["modification", "info"],
    ["modification", "reason"]
  ])
  const modified = all(doc, "modificationInfo").length > 0 || all(doc, "modification").length > 0
  const amended = (version !== null && version > 1) || modified
  const href = href44(doc)
  const segment = segmentOf(href) ?? typeSegment
  const title = title44(doc) ?? placeholderTitle(number)
  const budget = normaliseAmount(textAt(doc, maxPricePaths)) ?? null
  // 44-FZ prices are in roubles unless the notice names a currency; RUB is assumed only for a 44-FZ notice that
  // states a price and no currency (never for 223-FZ, where foreign-currency lots are common).
  const currency = currencyOf(textAt(doc, currencyPaths)) ?? (budget === null ? null : "RUB")
  return {
    drafts: [
      {
        where,
        draft: {
          kind: amended ? "amendment" : "original",
          purchaseNumber: number,
          version,
          reason: amended ? (modification ?? null) : null,
          title,
          buyer: buyer44(doc) ?? null,
          // 44-FZ notices carry no region element; INN prefixes and financing OKTMO are unreliable (see the guide).
          region: null,
          budget,
          currency,
          deadline: toUtc(textAt(doc, deadlinePaths), "endOfDay") ?? null,
          publishedAt: publishedAt44(doc) ?? null,
          url: card44Url(number, segment),
          okpd2Codes: okpd2Codes44(doc),
          lots: lots44(doc, title, budget, currency),
          docsUrl: [...(segment === undefined ? [] : [docs44Url(number, segment)]), ...attachmentUrls44(doc)]
        }
      }
    ],
    rejected: []
  }
}
