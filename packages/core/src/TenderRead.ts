import type { DateTime } from "effect"
import { effectiveStatus } from "./Open.ts"
import { type Plan, planRules } from "./Plan.ts"
import type { FullTender, StoredTender, TenderCard, TenderRecord } from "./Tender.ts"

/** Lot names joined by `; `, omitted when unknown or equal to the title. */
export const subjectOf = (record: Pick<TenderRecord, "title" | "lots">): string | undefined => {
  const names = record.lots.map((lot) => lot.title.trim()).filter((name) => name.length > 0)
  if (names.length === 0) return undefined
  const subject = names.join("; ")
  return subject === record.title ? undefined : subject
}

/** The card of search results and alerts. */
export const toCard = (record: TenderRecord): TenderCard => {
  const subject = subjectOf(record)
  return {
    id: record.id,
    title: record.title,
    ...(subject === undefined ? {} : { subject }),
    buyer: record.buyer,
    country: record.country,
    budget: record.budget,
    currency: record.currency,
    deadline: record.deadline,
    url: record.url,
    source: record.source
  }
}

const freeHint = "CPV and OKPD2 codes, lots and document links are included on the Pro and Business plans."

/** The full tender for a caller on `plan`, as of `now`. */
export const toFullTender = (record: StoredTender, plan: Plan, now: DateTime.Utc): FullTender => {
  const base = {
    ...toCard(record),
    status: effectiveStatus(record, now),
    publishedAt: record.publishedAt,
    region: record.region,
    lotsCount: record.lots.length > 0 ? record.lots.length : null,
    updatedAt: record.updatedAt
  }
  if (!planRules[plan].fullTenderExtras) return { ...base, hint: freeHint }
  return {
    ...base,
    cpvCodes: record.cpvCodes,
    ...(record.source === "eaeu" ? { okpd2Codes: record.okpd2Codes } : {}),
    lots: record.lots,
    docsUrl: record.docsUrl
  }
}
