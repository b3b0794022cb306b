import { DateTime, Option, Schema } from "effect"

const IsoDay = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))

/** Token-service resume point: the last completed (day, region, documentType); nulls = nothing of `day` done yet. */
export const TokenCursor = Schema.Struct({
  mode: Schema.Literal("token"),
  day: IsoDay,
  region: Schema.NullOr(Schema.String),
  documentType: Schema.NullOr(Schema.String)
})
export type TokenCursor = typeof TokenCursor.Type

/** RSS resume point: the latest "Обновлено" date seen (re-read inclusively next run). */
export const RssCursor = Schema.Struct({ mode: Schema.Literal("rss"), updatedFrom: IsoDay })
export type RssCursor = typeof RssCursor.Type

/** Either cursor of the EIS feed. */
export const EisCursor = Schema.Union([TokenCursor, RssCursor])
export type EisCursor = typeof EisCursor.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(EisCursor))

/** Reads a saved cursor; an unreadable one counts as absent (the run falls back to `since` or the lookback). */
export const readCursor = (cursor: string | null): EisCursor | undefined =>
  cursor === null ? undefined : Option.getOrUndefined(decode(cursor))

/** Serialises a cursor (stable key order). */
export const writeCursor = (cursor: EisCursor): string => JSON.stringify(cursor)

/** The Moscow calendar day (EIS days are Moscow days; UTC+3, no DST since 2014) of an instant, as YYYY-MM-DD. */
export const moscowDay = (instant: DateTime.DateTime): string =>
  DateTime.formatIsoDateUtc(DateTime.add(instant, { hours: 3 }))

/** YYYY-MM-DD plus `n` days. */
export const addDays = (day: string, n: number): string =>
  DateTime.formatIsoDateUtc(DateTime.add(DateTime.makeUnsafe(`${day}T00:00:00Z`), { days: n }))

/** YYYY-MM-DD as the portal's dd.mm.yyyy. */
export const toRuDate = (day: string): string => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`

/** The portal's dd.mm.yyyy (first occurrence in the text) as YYYY-MM-DD. */
export const fromRuDate = (raw: string | undefined): string | undefined => {
  const m = raw === undefined ? null : /(\d{2})\.(\d{2})\.(\d{4})/u.exec(raw)
  return m === null ? undefined : `${m[3]}-${m[2]}-${m[1]}`
}
