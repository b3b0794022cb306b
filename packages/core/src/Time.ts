import { DateTime, Option, Schema } from "effect"

/** The instants the service accepts: ISO 8601 four-digit years, as PostgreSQL's timestamptz reads them. */
const earliest = DateTime.toEpochMillis(DateTime.makeUnsafe("0001-01-01T00:00:00Z"))
const latest = DateTime.toEpochMillis(DateTime.makeUnsafe("9999-12-31T23:59:59.999Z"))

const dateOnly = /^\d{4}-\d{2}-\d{2}$/u
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/u
const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const digitsAt = (text: string, from: number, to: number): number => {
  let value = 0
  for (let at = from; at < to; at++) value = value * 10 + text.charCodeAt(at) - 48
  return value
}

/**
 * The epoch milliseconds of an ISO date (`YYYY-MM-DD`, meaning 00:00Z) or a date-time with `Z` or a numeric offset;
 * `undefined` for anything else, an impossible calendar date, or an instant outside 0001-01-01 to 9999-12-31 in UTC.
 * Allocates nothing for a valid instant: every timestamp a response carries is checked by `UtcTimestamp`.
 */
const instantMillis = (input: string): number | undefined => {
  const iso = dateOnly.test(input) ? `${input}T00:00:00Z` : dateTime.test(input) ? input : undefined
  if (iso === undefined) return undefined
  const [year, month, day] = [digitsAt(iso, 0, 4), digitsAt(iso, 5, 7), digitsAt(iso, 8, 10)]
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const monthDays = month === 2 && leap ? 29 : daysInMonth[month - 1]
  if (monthDays === undefined || day < 1 || day > monthDays) return undefined
  // As `new Date(iso)` reads it (what DateTime.make does with a zoned text): NaN for what it cannot read.
  const millis = Date.parse(iso)
  return millis >= earliest && millis <= latest ? millis : undefined
}

/**
 * Parses an ISO date (`YYYY-MM-DD`, meaning 00:00Z) or a date-time with `Z` or a numeric offset; `None` for
 * anything else, an impossible calendar date, or an instant outside 0001-01-01 to 9999-12-31 in UTC.
 */
export const parseInstant = (input: string): Option.Option<DateTime.Utc> => {
  const millis = instantMillis(input)
  return millis === undefined ? Option.none() : Option.some(DateTime.makeUnsafe(millis))
}

/** What an instant input must look like, for error messages. */
export const instantExpectation =
  "a calendar date (YYYY-MM-DD) or a date-time with Z or a numeric offset, between 0001-01-01 and 9999-12-31 in UTC"

/** A UTC instant on the wire: ISO 8601 ending in `Z`, a real calendar instant in the accepted range. */
export const UtcTimestamp = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/u),
  Schema.makeFilter((text: string) => instantMillis(text) !== undefined || `must be ${instantExpectation}`)
).annotate({ format: "date-time" })
export type UtcTimestamp = typeof UtcTimestamp.Type

/** A UTC ISO text (`YYYY-MM-DDTHH:MM:SS`, any fraction, `Z`) at the wire's precision: the second. */
export const utcToTheSecond = (isoUtc: string): UtcTimestamp => `${isoUtc.slice(0, 19)}Z`

/** Formats an instant as the wire's UTC ISO string, to the second (the one precision of every timestamp). */
export const formatUtc = (instant: DateTime.Utc): UtcTimestamp => utcToTheSecond(DateTime.formatIso(instant))

/** `YYYY-MM` of an instant, in UTC. */
export const monthOf = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 7)

/** `YYYY-MM-DD` of an instant, in UTC. */
export const dayOf = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 10)

/** Whole seconds from `now` until the UTC calendar month ends (at least 1). */
export const secondsUntilMonthEnd = (now: DateTime.Utc): number => {
  const monthEnd = DateTime.add(DateTime.startOf(now, "month"), { months: 1 })
  return Math.max(1, Math.ceil((DateTime.toEpochMillis(monthEnd) - DateTime.toEpochMillis(now)) / 1000))
}
