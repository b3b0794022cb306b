import {
  characterCount,
  type NoticeKind,
  noticeLimits,
  ParsedNotice,
  recordLimits,
  type SourceLabel,
  statusOfKind,
  textProblem,
  TenderRecord
} from "@tenders/core"
import { Result, Schema } from "effect"
import { fitOptionalText, fitText } from "./fitText.ts"

/** A notice as a parser assembles it: a `ParsedNotice` whose record has no status (core's `statusOfKind` gives it). */
export interface NoticeCandidate {
  readonly kind: NoticeKind
  readonly procedureKey: string
  readonly version: number | null
  readonly reason: string | null
  readonly record: Omit<typeof TenderRecord.Encoded, "status">
  readonly sourceLabels?: ReadonlyArray<SourceLabel>
}

const usableUrl = (url: string): boolean => textProblem(url) === undefined && characterCount(url) <= recordLimits.url

/**
 * A candidate made to fit core's record bounds and text rule without losing the tender: text fields cleaned
 * and shortened (`fitText`), lists cut to their first N items, unusable document links dropped, and the
 * status core's table gives the notice's kind.
 */
export const fitNotice = (candidate: NoticeCandidate): typeof ParsedNotice.Encoded => {
  const { record } = candidate
  return {
    ...candidate,
    reason: fitOptionalText(candidate.reason, noticeLimits.reason),
    record: {
      ...record,
      status: statusOfKind[candidate.kind],
      title: fitText(record.title, recordLimits.title),
      buyer: fitOptionalText(record.buyer, recordLimits.buyer),
      region: fitOptionalText(record.region, recordLimits.region),
      cpvCodes: record.cpvCodes.slice(0, recordLimits.codes),
      okpd2Codes: record.okpd2Codes.slice(0, recordLimits.codes),
      lots: record.lots.slice(0, recordLimits.lots).map((lot) => ({
        ...lot,
        title: fitText(lot.title, recordLimits.lotTitle),
        cpvCodes: lot.cpvCodes.slice(0, recordLimits.codes)
      })),
      docsUrl: record.docsUrl.filter(usableUrl).slice(0, recordLimits.docs)
    }
  }
}

const decodeNotice = Schema.decodeUnknownResult(ParsedNotice)

/** Fits a candidate ({@link fitNotice}) and validates it as a `ParsedNotice`; the failure is the schema's message. */
export const toParsedNotice = (candidate: NoticeCandidate): Result.Result<ParsedNotice, string> =>
  Result.mapError(decodeNotice(fitNotice(candidate)), (error) => error.message.split("\n").join(" "))
