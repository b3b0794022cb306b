import { DateTime, Option, Schema } from "effect"

/** A UTC instant on the wire: ISO 8601 ending in `Z`. */
export const UtcTimestamp = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/u)
).annotate({ format: "date-time" })
export type UtcTimestamp = typeof UtcTimestamp.Type

/** Formats an instant as the wire's UTC ISO string. */
export const formatUtc = (instant: DateTime.Utc): UtcTimestamp => DateTime.formatIso(instant)

/** Parses an ISO date (`YYYY-MM-DD`, meaning 00:00Z) or a date-time with `Z` or a numeric offset. */
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
  return Option.map(DateTime.make(iso), DateTime.toUtc)
}
