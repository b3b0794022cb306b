import { BudgetCurrency, TenderRecord } from "@tenders/core"
import { Schema } from "effect"
import { anchor, DAY, HOUR } from "./dates.ts"
import { cpvLabels } from "./tables.ts"

/** A record as the generator builds it: the import format before decoding. */
export type RecordFields = (typeof TenderRecord)["Encoded"]

const decode = Schema.decodeUnknownResult(TenderRecord)

/** The record as `tenders ingest --from` reads it; what the import would reject fails with the record's id. */
export const decodeRecord = (fields: RecordFields): TenderRecord => {
  const result = decode(fields)
  if (result._tag === "Failure") throw new Error(`${fields.id}: ${result.failure.message}`)
  return result.success
}

const isBudgetCurrency = Schema.is(BudgetCurrency)
// KZT and BYN are outside the reference-rate table on purpose (docs/sample-data.md).
const knownCurrency = (code: string | null) =>
  code !== null && (isBudgetCurrency(code) || ["KZT", "BYN"].includes(code))
const okpd2 = /^\d{2}\.\d{2}\.\d{2}\.\d{3}$/u

/** What the sample promises beyond the record format (docs/sample-data.md); the first broken promise fails. */
export const checkSample = (records: ReadonlyArray<TenderRecord>): void => {
  const ids = new Set<string>()
  for (const r of records) {
    const fail = (message: string) => {
      throw new Error(`${r.id}: ${message}`)
    }
    if (ids.has(r.id)) fail("duplicate id")
    ids.add(r.id)
    if (/lorem|ipsum|\btest\b|sample/iu.test(r.title)) fail("title")
    for (const [budget, currency] of [[r.budget, r.currency], ...r.lots.map((l) => [l.budget, l.currency] as const)])
      if (budget !== null && !knownCurrency(currency)) fail(`currency ${currency}`)
    const published = Date.parse(r.publishedAt ?? "")
    if (!(published <= anchor - DAY && published >= anchor - 40 * DAY - 2 * HOUR)) fail("publishedAt out of range")
    if (r.deadline !== null && Date.parse(r.deadline) <= published) fail("deadline before publication")
    for (const code of [...r.cpvCodes, ...r.lots.flatMap((l) => l.cpvCodes)])
      if (cpvLabels[code] === undefined) fail(`cpv ${code}`)
    for (const code of r.okpd2Codes) if (!okpd2.test(code)) fail(`okpd2 ${code}`)
    if (r.source !== "eaeu" && r.okpd2Codes.length > 0) fail("okpd2 outside eaeu")
    if (!r.url.startsWith("https://") || r.docsUrl.some((u) => !u.startsWith("https://"))) fail("url")
  }
}

interface SourceSummary {
  total: number
  open: number
  amended: number
  cancelled: number
  closed: number
  within24h: number
  pastOpen: number
  noDeadline: number
  noBudget: number
  multiLot: number
  currencies: Record<string, number>
}

/** The counts per source that docs/sample-data.md tabulates. */
export const summarize = (records: ReadonlyArray<TenderRecord>): Record<string, SourceSummary> => {
  const out: Record<string, SourceSummary> = {}
  for (const r of records) {
    const s = (out[r.source] ??= {
      total: 0,
      open: 0,
      amended: 0,
      cancelled: 0,
      closed: 0,
      within24h: 0,
      pastOpen: 0,
      noDeadline: 0,
      noBudget: 0,
      multiLot: 0,
      currencies: {}
    })
    s.total++
    s[r.status]++
    const d = r.deadline === null ? null : Date.parse(r.deadline)
    if (d === null) s.noDeadline++
    else if (d >= anchor && d < anchor + DAY && (r.status === "open" || r.status === "amended")) s.within24h++
    if (d !== null && d < anchor && r.status === "open") s.pastOpen++
    if (r.budget === null) s.noBudget++
    else if (r.currency !== null) s.currencies[r.currency] = (s.currencies[r.currency] ?? 0) + 1
    if (r.lots.length > 1) s.multiLot++
  }
  return out
}
