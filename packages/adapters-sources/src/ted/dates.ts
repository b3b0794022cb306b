/** A TED calendar date with the offset it was stated in (`2026-07-13+02:00`, `2019-11-26Z`). */
interface TedDate {
  readonly year: number
  readonly month: number
  readonly day: number
  /** Offset east of UTC in minutes; 0 when the value has `Z` or no offset. */
  readonly offsetMinutes: number
}

interface TedTime {
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly offsetMinutes: number | null
}

const offsetToMinutes = (offset: string | undefined): number | null => {
  if (offset === undefined || offset === "") return null
  if (offset === "Z") return 0
  const sign = offset.startsWith("-") ? -1 : 1
  const [hours = "0", minutes = "0"] = offset.slice(1).split(":")
  return sign * (Number(hours) * 60 + Number(minutes))
}

/** Parses `YYYY-MM-DD` with an optional `Z`/`±HH:MM` offset; null for anything else or an impossible date. */
export const parseTedDate = (input: string): TedDate | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/u.exec(input.trim())
  if (match === null) return null
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  const check = new Date(Date.UTC(year, month - 1, day))
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null
  return { year, month, day, offsetMinutes: offsetToMinutes(match[4]) ?? 0 }
}

/** Parses `HH:MM[:SS]` with an optional `Z`/`±HH:MM` offset; null for anything else. */
export const parseTedTime = (input: string): TedTime | null => {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/u.exec(input.trim())
  if (match === null) return null
  const hour = Number(match[1])
  const minute = Number(match[2])
  const second = Number(match[3] ?? "0")
  if (hour > 24 || minute > 59 || second > 59 || (hour === 24 && (minute > 0 || second > 0))) return null
  return { hour, minute, second, offsetMinutes: offsetToMinutes(match[4]) }
}

/** UTC ISO string without milliseconds (`2026-08-10T21:59:59Z`). */
const toUtcIso = (epochMs: number): string => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/u, "Z")

const localToUtc = (date: TedDate, hour: number, minute: number, second: number, offsetMinutes: number): string =>
  toUtcIso(Date.UTC(date.year, date.month - 1, date.day, hour, minute, second) - offsetMinutes * 60_000)

/** Local midnight of the stated offset, as UTC (publication dates). */
export const startOfDayUtc = (input: string): string | null => {
  const date = parseTedDate(input)
  return date === null ? null : localToUtc(date, 0, 0, 0, date.offsetMinutes)
}

/**
 * A deadline from a date and an optional separate time (`12:00:00+02:00`) as UTC; the time's own offset wins
 * over the date's. Without a (valid) time: 23:59:59 local of the date's offset, so a tender never closes early.
 */
export const deadlineUtc = (dateInput: string, timeInput: string | null): string | null => {
  const date = parseTedDate(dateInput)
  if (date === null) return null
  const time = timeInput === null ? null : parseTedTime(timeInput)
  if (time === null) return localToUtc(date, 23, 59, 59, date.offsetMinutes)
  return localToUtc(date, time.hour, time.minute, time.second, time.offsetMinutes ?? date.offsetMinutes)
}

/**
 * Earliest deadline over the lots: dates zipped with times only when both arrays have the same length
 * (otherwise every date counts as date-only). Null when no date parses.
 */
export const earliestDeadline = (dates: ReadonlyArray<string>, times: ReadonlyArray<string>): string | null => {
  const zip = times.length === dates.length
  let best: string | null = null
  dates.forEach((date, i) => {
    const candidate = deadlineUtc(date, zip ? (times[i] ?? null) : null)
    // Same fixed format, all in UTC: string order is time order.
    if (candidate !== null && (best === null || candidate < best)) best = candidate
  })
  return best
}
