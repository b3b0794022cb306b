import type { ParsedNotice } from "./SourceNotice.ts"
import type { TenderRecord, TenderStatus } from "./Tender.ts"

const rank: Record<TenderStatus, number> = { open: 0, amended: 1, closed: 2, cancelled: 3 }

/** The status a notice of each kind gives its procedure. */
export const statusOfKind: Record<ParsedNotice["kind"], TenderStatus> = {
  original: "open",
  amendment: "amended",
  result: "closed",
  cancellation: "cancelled"
}

/** JSON with object keys sorted at every level: the same value always gives the same text (content hashes). */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )

const byAge = (a: ParsedNotice, b: ParsedNotice): number => {
  const va = a.version ?? 0
  const vb = b.version ?? 0
  if (va !== vb) return va - vb
  const pa = a.record.publishedAt ?? ""
  const pb = b.record.publishedAt ?? ""
  if (pa !== pb) return pa < pb ? -1 : 1
  if (a.record.id !== b.record.id) return a.record.id < b.record.id ? -1 : 1
  const ca = canonicalJson(a)
  const cb = canonicalJson(b)
  return ca < cb ? -1 : ca > cb ? 1 : 0
}

const overlay = (base: TenderRecord, next: TenderRecord): TenderRecord => ({
  ...base,
  title: next.title,
  nativeId: base.nativeId,
  buyer: next.buyer ?? base.buyer,
  country: next.country ?? base.country,
  region: next.region ?? base.region,
  budget: next.budget ?? base.budget,
  currency: next.budget === null ? base.currency : next.currency,
  deadline: next.deadline ?? base.deadline,
  publishedAt: base.publishedAt ?? next.publishedAt,
  url: next.url,
  cpvCodes: next.cpvCodes.length > 0 ? next.cpvCodes : base.cpvCodes,
  okpd2Codes: next.okpd2Codes.length > 0 ? next.okpd2Codes : base.okpd2Codes,
  lots: next.lots.length > 0 ? next.lots : base.lots,
  docsUrl: [...new Set([...base.docsUrl, ...next.docsUrl])]
})

/** The id a procedure's tender carries: its original notice's, else its oldest one's (same for any arrival order). */
export const canonicalId = (notices: ReadonlyArray<ParsedNotice>): TenderRecord["id"] | undefined => {
  const sorted = notices.toSorted(byAge)
  return (sorted.find((n) => n.kind === "original") ?? sorted[0])?.record.id
}

/**
 * The tender a procedure's notices describe, whatever order they arrived in: the id of its original notice,
 * the content of the original overlaid with each amendment in version / publication order (a field a newer
 * notice leaves empty keeps its older value), and the strongest status any notice gives
 * (cancelled > closed > amended > open). Cancellation and result notices change the status, and fill only
 * what no content notice has.
 */
export const resolveProcedure = (notices: ReadonlyArray<ParsedNotice>): TenderRecord | undefined => {
  const id = canonicalId(notices)
  if (id === undefined) return undefined
  const sorted = notices.toSorted(byAge)
  const content = sorted.filter((n) => n.kind === "original" || n.kind === "amendment")
  const layers = content.length > 0 ? content : sorted
  const canonical = sorted.find((n) => n.record.id === id) ?? sorted[0]
  const start = layers[0]
  if (start === undefined || canonical === undefined) return undefined
  const merged = layers.slice(1).reduce((acc, n) => overlay(acc, n.record), start.record)
  const status = sorted
    .map((n) => statusOfKind[n.kind])
    .reduce((a, b) => (rank[b] > rank[a] ? b : a), "open" as TenderStatus)
  return { ...merged, id, nativeId: canonical.record.nativeId, status }
}

/** Whether two records say the same thing (key order and extra fields such as `updatedAt` aside). */
export const sameRecord = (a: TenderRecord, b: TenderRecord): boolean => {
  const strip = ({ updatedAt: _u, ...rest }: TenderRecord & { readonly updatedAt?: string }) => rest
  return canonicalJson(strip(a)) === canonicalJson(strip(b))
}

/** What an ingested notice changed, for the event log and alerts. */
export type TenderChange = "new" | "amended" | "cancelled" | "closed" | "updated" | "unchanged"

/** Compares the stored tender with the resolved one. */
export const changeOf = (before: TenderRecord | undefined, after: TenderRecord, notice: ParsedNotice): TenderChange => {
  if (before === undefined) return "new"
  if (before.status !== after.status) {
    if (after.status === "cancelled") return "cancelled"
    if (after.status === "closed") return "closed"
    if (after.status === "amended") return "amended"
  }
  if (sameRecord(before, after)) return "unchanged"
  return notice.kind === "amendment" ? "amended" : "updated"
}
