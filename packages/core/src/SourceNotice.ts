import { Schema } from "effect"
import { CpvCode, TenderRecord } from "./Tender.ts"
import { Text } from "./Text.ts"

/** The most a notice's own fields may hold, in characters (the record's are `recordLimits`). */
export const noticeLimits = { procedureKey: 500, reason: 2_000 } as const

/**
 * A code's name as a source publishes it beside the code, in its own language (ARMEPS `CPV Codes` lines:
 * `44131300-թուջե կափարիչներ`): a label of the code the text analysis learns (`SearchText.useSourceLabels`).
 */
export const SourceLabel = Schema.Struct({
  code: CpvCode,
  language: Schema.Literals(["hy", "ru"]),
  name: Text({ min: 1, max: 200 })
}).annotate({ identifier: "SourceLabel" })
export type SourceLabel = typeof SourceLabel.Type

/** What a source notice says about its procedure. */
export const NoticeKind = Schema.Literals(["original", "amendment", "cancellation", "result"])
export type NoticeKind = typeof NoticeKind.Type

/**
 * One notice as a source parser reads it: the normalised record of this notice (its own id, status as the
 * notice itself states it), what kind of notice it is, and the keys that link it to the other notices of the
 * same procedure. Lifecycle rules in core decide what it does to the stored tender.
 */
export const ParsedNotice = Schema.Struct({
  kind: NoticeKind,
  record: TenderRecord,
  /** Links all notices of one procedure: TED procedure-identifier, EIS purchase number, Armenian procurement code. */
  procedureKey: Text({ min: 1, max: noticeLimits.procedureKey }),
  /** Source version when the source numbers versions (EIS versionNumber, TED notice-version), else null. */
  version: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 }))),
  /** Free-text reason for amendments and cancellations when the source gives one (TED change-reason-code, ...). */
  reason: Schema.NullOr(Text({ max: noticeLimits.reason })),
  /** The names its source gives its codes, where it gives them (`SourceLabel`). */
  sourceLabels: Schema.optionalKey(Schema.Array(SourceLabel).check(Schema.isMaxLength(100)))
}).annotate({ identifier: "ParsedNotice" })
export type ParsedNotice = typeof ParsedNotice.Type

/** A notice the parser could not read, with the reason; never fatal for a run. */
export interface RejectedNotice {
  readonly where: string
  readonly reason: string
}

/** The outcome of parsing one payload (one API page, one HTML page, one XML file). */
export interface ParseResult {
  readonly notices: ReadonlyArray<ParsedNotice>
  readonly rejected: ReadonlyArray<RejectedNotice>
}
