import type { NoticeKind, ParsedNotice, ParseResult, RecordLot, RejectedNotice } from "@tenders/core"
import { Result } from "effect"
import { type NoticeCandidate, toParsedNotice } from "../parsedNotice.ts"

/** The fields a document yields for one notice, before id/URL derivation and schema validation. */
export interface NoticeDraft {
  readonly kind: NoticeKind
  readonly purchaseNumber: string
  readonly version: number | null
  readonly reason: string | null
  readonly title: string
  readonly buyer: string | null
  readonly region: string | null
  readonly budget: string | null
  readonly currency: string | null
  readonly deadline: string | null
  readonly publishedAt: string | null
  readonly url: string
  readonly okpd2Codes: ReadonlyArray<string>
  readonly lots: ReadonlyArray<typeof RecordLot.Type>
  readonly docsUrl: ReadonlyArray<string>
}

/** What one document produced: drafts to validate plus entries already rejected. */
export interface DraftBatch {
  readonly drafts: ReadonlyArray<{ readonly where: string; readonly draft: NoticeDraft }>
  readonly rejected: ReadonlyArray<RejectedNotice>
}

/** Placeholder title for lifecycle documents that carry no purchase name, so they can still link by number. */
export const placeholderTitle = (purchaseNumber: string): string => `Закупка №${purchaseNumber}`

/** A batch with a single rejected entry. */
export const rejectOnly = (where: string, reason: string): DraftBatch => ({ drafts: [], rejected: [{ where, reason }] })

const toCandidate = (draft: NoticeDraft): NoticeCandidate => ({
  kind: draft.kind,
  procedureKey: draft.purchaseNumber,
  version: draft.version,
  reason: draft.reason,
  record: {
    id: `eaeu-${draft.purchaseNumber}`,
    source: "eaeu",
    nativeId: draft.purchaseNumber,
    title: draft.title,
    buyer: draft.buyer,
    country: "RU",
    region: draft.region,
    budget: draft.budget,
    currency: draft.currency,
    deadline: draft.deadline,
    publishedAt: draft.publishedAt,
    url: draft.url,
    cpvCodes: [],
    okpd2Codes: draft.okpd2Codes,
    lots: draft.lots,
    docsUrl: draft.docsUrl
  }
})

/** Validates every draft as a `ParsedNotice` (`toParsedNotice`); a failure becomes a rejected entry with its issue. */
export const finish = (batch: DraftBatch): ParseResult => {
  const notices: Array<ParsedNotice> = []
  const rejected: Array<RejectedNotice> = [...batch.rejected]
  for (const { where, draft } of batch.drafts) {
    const decoded = toParsedNotice(toCandidate(draft))
    if (Result.isSuccess(decoded)) notices.push(decoded.success)
    else rejected.push({ where, reason: `invalid notice: ${decoded.failure}` })
  }
  return { notices, rejected }
}
