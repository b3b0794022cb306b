import { Schema } from "effect"
import { CurrencyCode } from "./Currency.ts"
import { DecimalString } from "./Money.ts"
import { SourceCode } from "./Source.ts"
import { isMaxCharacters, Text } from "./Text.ts"
import { UtcTimestamp } from "./Time.ts"

/** `<source>-<native id>`, URL-safe. */
export const TenderId = Schema.String.check(
  Schema.isPattern(/^(ted|gnumner|eaeu)-[A-Za-z0-9._-]{1,200}$/u, {
    message:
      "must be a tender id as given in search results: " +
      "ted-, gnumner- or eaeu- and up to 200 letters, digits, '.', '_' or '-'"
  })
).pipe(Schema.brand("TenderId"))
export type TenderId = typeof TenderId.Type

/** Lifecycle states of a tender. */
export const TenderStatus = Schema.Literals(["open", "amended", "cancelled", "closed"])
export type TenderStatus = typeof TenderStatus.Type

/** A CPV code as records carry it: 8 digits, without the check digit. */
export const CpvCode = Schema.String.check(Schema.isPattern(/^\d{8}$/u))

/** A lot of a tender (spec "Lot"). */
export const Lot = Schema.Struct({
  title: Schema.String,
  budget: Schema.NullOr(DecimalString),
  currency: Schema.NullOr(Schema.String),
  cpvCodes: Schema.Array(Schema.String)
}).annotate({ identifier: "Lot" })
export type Lot = typeof Lot.Type

const cardFields = {
  id: Schema.String,
  title: Schema.String,
  subject: Schema.optionalKey(Schema.String),
  buyer: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  budget: Schema.NullOr(DecimalString),
  currency: Schema.NullOr(Schema.String),
  deadline: Schema.NullOr(UtcTimestamp),
  url: Schema.String,
  source: SourceCode
}

/** The tender card of search results and alerts; no other properties. */
export const TenderCard = Schema.Struct(cardFields).annotate({ identifier: "TenderCard" })
export type TenderCard = typeof TenderCard.Type

/** The full card of one tender; the paid-only fields are omitted on Free. */
export const FullTender = Schema.Struct({
  ...cardFields,
  status: TenderStatus,
  publishedAt: Schema.NullOr(UtcTimestamp),
  region: Schema.NullOr(Schema.String),
  lotsCount: Schema.NullOr(
    Schema.Int.check(Schema.isBetween({ minimum: -9007199254740991, maximum: 9007199254740991 }))
  ),
  updatedAt: UtcTimestamp,
  cpvCodes: Schema.optionalKey(Schema.Array(Schema.String)),
  okpd2Codes: Schema.optionalKey(Schema.Array(Schema.String)),
  lots: Schema.optionalKey(Schema.Array(Lot)),
  docsUrl: Schema.optionalKey(Schema.Array(Schema.String)),
  hint: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "FullTender" })
export type FullTender = typeof FullTender.Type

/**
 * The most a normalised record may hold, in characters and items: generous for real notices, and small enough
 * that a tender's text and search vectors always fit in a row the store can read back. Parsers shorten
 * source text to these bounds; an import file's record beyond them is rejected.
 */
export const recordLimits = {
  title: 2_000,
  buyer: 1_000,
  region: 500,
  nativeId: 200,
  url: 2_048,
  lots: 500,
  lotTitle: 1_000,
  codes: 500,
  code: 50,
  docs: 200,
  amount: 40
} as const

const RecordAmount = DecimalString.check(isMaxCharacters(recordLimits.amount))

/** A lot inside a normalised record: codes are 8-digit CPV codes without check digit. */
export const RecordLot = Schema.Struct({
  title: Text({ max: recordLimits.lotTitle }),
  budget: Schema.NullOr(RecordAmount),
  currency: Schema.NullOr(CurrencyCode),
  cpvCodes: Schema.Array(CpvCode).check(Schema.isMaxLength(recordLimits.codes))
})
export type RecordLot = typeof RecordLot.Type

/**
 * A normalised tender record: what sources produce and what `tenders ingest --from` reads,
 * one JSON object per line (docs/sample-data.md).
 */
export const TenderRecord = Schema.Struct({
  id: TenderId,
  source: SourceCode,
  nativeId: Text({ min: 1, max: recordLimits.nativeId }),
  title: Text({ min: 1, max: recordLimits.title }),
  buyer: Schema.NullOr(Text({ max: recordLimits.buyer })),
  country: Schema.NullOr(Schema.String.check(Schema.isPattern(/^[A-Z]{2}$/u))),
  region: Schema.NullOr(Text({ max: recordLimits.region })),
  budget: Schema.NullOr(RecordAmount),
  currency: Schema.NullOr(CurrencyCode),
  deadline: Schema.NullOr(UtcTimestamp),
  publishedAt: Schema.NullOr(UtcTimestamp),
  status: TenderStatus,
  url: Text({ max: recordLimits.url }).check(Schema.isPattern(/^https?:\/\//u)),
  cpvCodes: Schema.Array(CpvCode).check(Schema.isMaxLength(recordLimits.codes)),
  okpd2Codes: Schema.Array(Text({ max: recordLimits.code })).check(Schema.isMaxLength(recordLimits.codes)),
  lots: Schema.Array(RecordLot).check(Schema.isMaxLength(recordLimits.lots)),
  docsUrl: Schema.Array(Text({ max: recordLimits.url })).check(Schema.isMaxLength(recordLimits.docs))
}).annotate({ identifier: "TenderRecord" })
export type TenderRecord = typeof TenderRecord.Type

/** A record as the store holds it: the normalised record plus when it last changed. */
export interface StoredTender extends TenderRecord {
  readonly updatedAt: UtcTimestamp
}
