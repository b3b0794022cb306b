import { formatDecimal } from "@tenders/core"
import { BigDecimal, Option } from "effect"

/** Offset of Moscow time (Europe/Moscow has been UTC+3 all year since 2014), in minutes. */
export const MOSCOW_OFFSET_MINUTES = 180

/**
 * Normalises an EIS amount (`1300000`, `7232.24`, `1 234 567,89`, `2 750 000,50`, NBSP / thin-space separators)
 * to a plain decimal string with at least two decimals (`1300000.00`), purely by string manipulation.
 * Returns undefined for anything that is not a non-negative amount.
 */
export const normaliseAmount = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  let s = raw.replace(/[\s\u00a0\u2007\u2009\u202f']/gu, "")
  if (s.includes(",") && s.includes(".")) s = s.replace(/,/gu, "")
  else if (/^\d{1,3}(,\d{3}){2,}$/u.test(s)) s = s.replace(/,/gu, "")
  else s = s.replace(",", ".")
  const match = /^(\d+)(?:\.(\d+))?$/u.exec(s)
  if (match === null) return undefined
  const whole = (match[1] ?? "0").replace(/^0+(?=\d)/u, "")
  const fraction = (match[2] ?? "").padEnd(2, "0")
  return `${whole}.${fraction}`
}

/** Sums normalised amounts exactly (BigDecimal), formatted like `normaliseAmount`. */
export const sumAmounts = (amounts: ReadonlyArray<string>): string | undefined => {
  let total = BigDecimal.fromStringUnsafe("0")
  for (const amount of amounts) {
    const parsed = BigDecimal.fromString(amount)
    if (Option.isNone(parsed)) return undefined
    total = BigDecimal.sum(total, parsed.value)
  }
  return normaliseAmount(formatDecimal(total))
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

const validDate = (y: number, m: number, d: number): boolean => {
  const probe = new Date(Date.UTC(y, m - 1, d))
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d
}

const offsetMinutes = (zone: string | undefined, fallback: number): number | undefined => {
  if (zone === undefined || zone === "") return fallback
  if (zone === "Z") return 0
  const m = /^([+-])(\d{2}):?(\d{2})$/u.exec(zone)
  if (m === null) return undefined
  const minutes = Number(m[2]) * 60 + Number(m[3])
  return m[1] === "-" ? -minutes : minutes
}

/** Formats epoch milliseconds as a UTC ISO timestamp without milliseconds (`2023-11-22T05:00:00Z`). */
export const formatUtcSeconds = (epochMs: number): string => {
  const d = new Date(epochMs)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes()
  )}:${pad(d.getUTCSeconds())}Z`
}

/** How a date without a time of day is read: start of the day, or its last second (don't close a tender early). */
export type DateOnlyRule = "startOfDay" | "endOfDay"

/**
 * Converts an EIS date/time to UTC. Accepts `2023-11-22T08:00:00+03:00`, `…16:24:40.359+03:00`, `…Z`,
 * date-only values with or without a zone (`2023-11-22+03:00`), and values without an offset, which are read in
 * `defaultOffset` minutes (Moscow time for EIS). Milliseconds are dropped. Returns undefined when unreadable.
 */
export const toUtc = (
  raw: string | undefined,
  rule: DateOnlyRule,
  defaultOffset: number = MOSCOW_OFFSET_MINUTES
): string | undefined => {
  if (raw === undefined) return undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/u.exec(
    raw.trim()
  )
  if (m === null) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (!validDate(y, mo, d)) return undefined
  const hasTime = m[4] !== undefined
  const [h, mi, s] = hasTime
    ? [Number(m[4]), Number(m[5]), Number(m[6] ?? "0")]
    : rule === "endOfDay"
      ? [23, 59, 59]
      : [0, 0, 0]
  if (h > 23 || mi > 59 || s > 59) return undefined
  const offset = offsetMinutes(m[7], defaultOffset)
  if (offset === undefined) return undefined
  return formatUtcSeconds(Date.UTC(y, mo - 1, d, h, mi, s) - offset * 60_000)
}

/** Converts a Russian `dd.mm.yyyy` or `dd.mm.yyyy HH:mm` (Moscow time) to UTC. */
export const russianDateToUtc = (raw: string | undefined, rule: DateOnlyRule): string | undefined => {
  if (raw === undefined) return undefined
  const m = /^(\d{2})\.(\d{2})\.(\d{4})(?:\s+(\d{2}):(\d{2}))?/u.exec(raw.trim())
  if (m === null) return undefined
  const time = m[4] === undefined ? "" : `T${m[4]}:${m[5]}:00`
  return toUtc(`${m[3]}-${m[2]}-${m[1]}${time}`, rule)
}

/** Order-preserving de-duplication. */
export const unique = (values: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(values)]

const okpd2Pattern = /^\d{2}(\.\d{1,3}){0,3}$/u

/** An OKPD2 code from an OKPD2 code or a KTRU code (`19.20.21.100-00000005` → `19.20.21.100`). */
export const okpd2Of = (code: string): string | undefined => {
  const prefix = code.trim().split("-")[0] ?? ""
  return okpd2Pattern.test(prefix) ? prefix : undefined
}

const numericCurrencies: Readonly<Record<string, string>> = { "643": "RUB", "840": "USD", "978": "EUR", "156": "CNY" }

/** An ISO 4217 alphabetic code from an EIS currency code (alphabetic, or numeric like `643`). */
export const currencyOf = (code: string | undefined): string | undefined => {
  if (code === undefined) return undefined
  const upper = code.trim().toUpperCase()
  if (/^[A-Z]{3}$/u.test(upper)) return upper
  return numericCurrencies[upper]
}

/** A purchase number is 11 (223-FZ), 18 (PP RF 615) or 19 (44-FZ) digits; anything else is refused. */
export const isPurchaseNumber = (value: string): boolean => /^\d{11,19}$/u.test(value)
