import type { NoticeKind } from "@tenders/core"
import { card44Url, docs44Url, segmentOf } from "./docTypes.ts"
import { attachmentUrls44, buyer44, href44, publishedAt44, purchaseNumber44, title44, version44 } from "./fields44.ts"
import { placeholderTitle, rejectOnly } from "./notice.ts"
import type { DraftBatch } from "./notice.ts"
import { isPurchaseNumber, unique } from "./values.ts"
import { all, descendants, descendantTexts, text } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

/** The lifecycle event a 44-FZ cancellation or protocol document stands for. */
export type Lifecycle44 = "cancel" | "final" | "failed"

// The status map lists failed procedures (несостоявшаяся закупка) as "closed"; they end without a contract, so
// they are cancellations here.
const kindOf: Readonly<Record<Lifecycle44, NoticeKind>> = {
  cancel: "cancellation",
  final: "result",
  failed: "cancellation"
}

const cancelReason = (doc: XmlNode): string | null => {
  const holders = [...all(doc, "cancelReasonInfo"), ...all(doc, "cancelReason")]
  const texts = unique(holders.flatMap((h) => [...descendantTexts(h, "info"), ...descendantTexts(h, "name")]))
  return texts.length > 0 ? texts.join("; ") : null
}

const failureReason = (rootName: string, doc: XmlNode): string => {
  const reasons = unique(descendants(doc, "abandonedReason").flatMap((r) => text(r, "name") ?? []))
  if (reasons.length > 0) return `failed: ${reasons.join("; ")}`
  return rootName.includes("ApplicationsAbsence") ? "failed: no applications submitted" : "failed"
}

/**
 * A 44-FZ lifecycle document (cancellation, final protocol, failed-procedure protocol). These do not carry the
 * whole card, so the record holds only what the document states; the lifecycle links it by purchase number.
 */
export const lifecycle44 = (
  rootName: string,
  doc: XmlNode,
  event: Lifecycle44,
  typeSegment: string | undefined
): DraftBatch => {
  const number = purchaseNumber44(doc)
  const where = `eaeu:${rootName}:${number ?? "?"}`
  if (number === undefined) return rejectOnly(where, "no purchaseNumber")
  if (!isPurchaseNumber(number))
    return rejectOnly(where, `purchaseNumber "${number}" is not an EIS registration number`)
  const segment = segmentOf(href44(doc)) ?? typeSegment
  return {
    drafts: [
      {
        where,
        draft: {
          kind: kindOf[event],
          purchaseNumber: number,
          version: version44(doc),
          reason: event === "cancel" ? cancelReason(doc) : event === "failed" ? failureReason(rootName, doc) : null,
          // Cancellations and protocols usually carry no purchase name: a placeholder keeps the record valid
          // (title must be non-empty) without inventing data; the lifecycle keeps the original's title.
          title: title44(doc) ?? placeholderTitle(number),
          buyer: buyer44(doc) ?? null,
          region: null,
          budget: null,
          currency: null,
          deadline: null,
          publishedAt: publishedAt44(doc) ?? null,
          url: card44Url(number, segment),
          okpd2Codes: [],
          lots: [],
          docsUrl: [...(segment === undefined ? [] : [docs44Url(number, segment)]), ...attachmentUrls44(doc)]
        }
      }
    ],
    rejected: []
  }
}
