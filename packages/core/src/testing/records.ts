import type { TenderRecord } from "../Tender.ts"
import { TenderId } from "../Tender.ts"

const day = 86_400_000

/** An ISO instant `days` from `now` (may be fractional or negative), second precision. */
export const isoFromNow = (days: number, now: number = Date.now()): string =>
  new Date(Math.round((now + days * day) / 1000) * 1000).toISOString().replace(".000Z", "Z")

/** A valid normalised record for tests; every field can be overridden. */
export const makeRecord = (overrides: Omit<Partial<TenderRecord>, "id"> & { readonly id: string }): TenderRecord => ({
  source: "ted",
  nativeId: overrides.id.replace(/^(ted|gnumner|eaeu)-/u, ""),
  title: "Road maintenance services",
  buyer: "Stadt Köln",
  country: "DE",
  region: null,
  budget: "100000",
  currency: "EUR",
  deadline: isoFromNow(14),
  publishedAt: isoFromNow(-3),
  status: "open",
  url: `https://ted.europa.eu/en/notice/-/detail/${overrides.id}`,
  cpvCodes: ["45233140"],
  okpd2Codes: [],
  lots: [],
  docsUrl: [],
  ...overrides,
  id: TenderId.make(overrides.id)
})

/** A record as one line of the import format (`tenders ingest --from FILE`), from `makeRecord`. */
export const recordLine = (overrides: Parameters<typeof makeRecord>[0]): string => JSON.stringify(makeRecord(overrides))
