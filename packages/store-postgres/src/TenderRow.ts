import { TenderRecord } from "@tenders/core"
import { Schema } from "effect"
import { jsonColumn, utc, UtcText } from "./Sql.ts"

/** The columns every tender query selects, aliased to the record's field names. */
export const tenderColumns = `
  t.id, t.source, t.native_id AS "nativeId", t.title, t.buyer, t.country, t.region,
  t.budget::text AS budget, t.currency, ${utc("t.deadline")} AS deadline, ${utc("t.published_at")} AS "publishedAt",
  t.status, t.url, t.cpv_codes AS "cpvCodes", t.okpd2_codes AS "okpd2Codes", t.lots, t.docs_url AS "docsUrl",
  ${utc("t.updated_at")} AS "updatedAt"`

/** A stored tender row as selected by `tenderColumns`. */
export const TenderRow = Schema.Struct({
  ...TenderRecord.fields,
  deadline: Schema.NullOr(UtcText),
  publishedAt: Schema.NullOr(UtcText),
  lots: jsonColumn(TenderRecord.fields.lots),
  updatedAt: UtcText
})
export type Tender = typeof TenderRow.Type

/** Tender rows as selected by `tenderColumns`, decoded. */
export const decodeTenderRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))

/** Tender rows selected with more columns (`fields`), decoded. */
export const decodeTenderRowsWith = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ ...TenderRow.fields, ...fields })))
