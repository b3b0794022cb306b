import { DateTime, Option, Schema } from "effect"

/** The instants the service accepts: ISO 8601 four-digit years, as PostgreSQL's timestamptz reads them. */
const earliest = DateTime.toEpochMillis(DateTime.makeUnsafe("0001-01-01T00:00:00Z"))
const latest = DateTime.toEpochMillis(DateTime.makeUnsafe("9999-12-31T23:59:59.999Z"))

/**
 * Parses an ISO date (`YYYY-MM-DD`, meaning 00:00Z) or a date-time with `Z` or a numeric offset; `None` for
 * anything else, an impossible calendar date, or an instant outside 0001-01-01 to 9999-12-31 in UTC.
 */
export const parseInstant = (input: string): Option.Option<DateTime.Utc> => {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(input)
  if (dateOnly !== null) return validCalendarDate(input, `${input}T00:00:00Z`)
  const dateTime = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/u.exec(input)
  if (dateTime === null) return Option.none()
  return validCalendarDate(dateTime[1] ?? "", input)
}

const validCalendarDate = (date: string, iso: string): Option.Option<DateTime.Utc> => {
  const [year = 0, month = 0, day = 0] = date.split("-").map(Number)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  if (monthDays === undefined || day < 1 || day > monthDays) return Option.none()
  return Option.filter(Option.map(DateTime.make(iso), DateTime.toUtc), (instant) => {
    const millis = DateTime.toEpochMillis(instant)
    return millis >= earliest && millis <= latest
  })
}

/** What an instant input must look like, for error messages. */
export const instantExpectation =
  "a calendar date (YYYY-MM-DD) or a date-time with Z or a numeric offset, between 0001-01-01 and 9999-12-31 in UTC"

/** A UTC instant on the wire: ISO 8601 ending in `Z`, a real calendar instant in the accepted range. */
export const UtcTimestamp = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/u),
  Schema.makeFilter((text: string) => Option.isSome(parseInstant(text)) || `must be ${instantExpectation}`)
).annotate({ format: "date-time" })
export type UtcTimestamp = typeof UtcTimestamp.Type

/** Formats an instant as the wire's UTC ISO string, to the second (the one precision of every timestamp). */
export const formatUtc = (instant: DateTime.Utc): UtcTimestamp => `${DateTime.formatIso(instant).slice(0, 19)}Z`

/** `YYYY-MM` of an instant, in UTC. */
export const monthOf = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 7)

/** `YYYY-MM-DD` of an instant, in UTC. */
export const dayOf = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 10)

/** Whole seconds from `now` until the UTC calendar month ends (at least 1). */
export const secondsUntilMonthEnd = (now: DateTime.Utc): number => {
  const monthEnd = DateTime.add(DateTime.startOf(now, "month"), { months: 1 })
  return Math.max(1, Math.ceil((DateTime.toEpochMillis(monthEnd) - DateTime.toEpochMillis(now)) / 1000))
}
