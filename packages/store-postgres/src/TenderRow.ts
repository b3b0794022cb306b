import { TenderRecord, UtcTimestamp } from "@tenders/core"
import { Schema } from "effect"

/** The columns every tender query selects, aliased to the record's field names. */
export const tenderColumns = `
  t.id, t.source, t.native_id AS "nativeId", t.title, t.buyer, t.country, t.region,
  t.budget::text AS budget, t.currency,
  to_char(t.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS deadline,
  to_char(t.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "publishedAt",
  t.status, t.url, t.cpv_codes AS "cpvCodes", t.okpd2_codes AS "okpd2Codes", t.lots, t.docs_url AS "docsUrl",
  to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "updatedAt"`

/** A stored tender row as selected by `tenderColumns`. */
export const TenderRow = Schema.Struct({
  ...TenderRecord.fields,
  lots: Schema.Union([TenderRecord.fields.lots, Schema.fromJsonString(TenderRecord.fields.lots)]),
  updatedAt: UtcTimestamp
})
