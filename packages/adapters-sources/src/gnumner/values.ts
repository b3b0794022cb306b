import type { SourceLabel } from "@tenders/core"
import { Predicate } from "effect"
import { cleanText as cleanSourceText } from "../fitText.ts"

/** Asia/Yerevan is UTC+04:00 all year (no DST since 2012). */
const YEREVAN_OFFSET_HOURS = 4

/** NFC, then the shared clean-up: whitespace runs one space, control characters dropped, trimmed. */
export const cleanText = (text: string): string => cleanSourceText(text.normalize("NFC"))

/** A non-empty cleaned text or null. */
export const nonEmpty = (text: string | null | undefined): string | null => {
  if (text === null || text === undefined) return null
  const cleaned = cleanText(text)
  return cleaned.length > 0 ? cleaned : null
}

/** Converts a Yerevan wall-clock time to UTC ISO `YYYY-MM-DDTHH:MM:SSZ`; null for an impossible date. */
export const yerevanToUtc = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number
): string | null => {
  if (hour > 23 || minute > 59 || second > 59) return null
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day) return null
  const utc = new Date(local.getTime() - YEREVAN_OFFSET_HOURS * 3_600_000)
  return utc.toISOString().replace(/\.\d{3}Z$/u, "Z")
}

const ISO_LOCAL = /(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/gu

/** Every `YYYY-MM-DD HH:MM(:SS)` of a text, in order, converted from Yerevan time to UTC (invalid dates skipped). */
export const isoLocalTimes = (text: string): ReadonlyArray<string> =>
  Array.from(text.matchAll(ISO_LOCAL), (m) =>
    yerevanToUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? "0"))
  ).filter(Predicate.isNotNull)

/** The first `DD/MM/YYYY HH:MM(:SS)` (ARMEPS) of a text, Yerevan -> UTC. */
export const armepsTime = (text: string | null): string | null => {
  if (text === null) return null
  const m = /(\d{1,2})[/.](\d{1,2})[/.](\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?/u.exec(text)
  if (m === null) return null
  return yerevanToUtc(Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? "0"))
}

/** Thousands groups: 1-3 leading digits, then groups of exactly three. */
const grouped = (groups: ReadonlyArray<string>): boolean =>
  groups.every((g, i) => (i === 0 ? /^\d{1,3}$/u.test(g) || groups.length === 1 : /^\d{3}$/u.test(g)))

/**
 * Normalises an amount to a decimal string without going through a JS number: `1 234 567,89`, `1,234,567.89`,
 * `12 450 000` (NBSP/thin-space groups too) -> `1234567.89` / `12450000`. The last of `.`/`,` is the decimal
 * separator when both occur; a lone separator followed by exactly three digits groups thousands. An all-zero
 * fraction is dropped (AMD amounts are whole units). Null for an empty or unreadable value.
 */
export const normalizeAmount = (raw: string | null): string | null => {
  if (raw === null) return null
  const text = raw
    .normalize("NFC")
    .replace(/[\s\u200B\u2009\u202F\u00A0'’]/gu, "")
    .replace(/(AMD|դրամ|֏|драм)\.?$/iu, "")
  if (!/^-?\d[\d.,]*$/u.test(text)) return null
  const negative = text.startsWith("-")
  const body = negative ? text.slice(1) : text
  const lastDot = body.lastIndexOf(".")
  const lastComma = body.lastIndexOf(",")
  let intPart = body
  let fraction = ""
  if (lastDot >= 0 && lastComma >= 0) {
    const at = Math.max(lastDot, lastComma)
    const decimalSep = body.charAt(at)
    const head = body.slice(0, at)
    if (head.includes(decimalSep) || !grouped(head.split(decimalSep === "." ? "," : "."))) return null
    intPart = head.replace(/[.,]/gu, "")
    fraction = body.slice(at + 1)
  } else if (lastDot >= 0 || lastComma >= 0) {
    const parts = body.split(lastDot >= 0 ? "." : ",")
    const tail = parts[parts.length - 1] ?? ""
    if (parts.length > 2 || tail.length === 3) {
      if (!grouped(parts)) return null
      intPart = parts.join("")
    } else [intPart = "", fraction = ""] = parts
  }
  if (!/^\d+$/u.test(intPart) || !/^\d*$/u.test(fraction)) return null
  const whole = intPart.replace(/^0+(?=\d)/u, "")
  const frac = /^0*$/u.test(fraction) ? "" : fraction.replace(/0+$/u, "")
  const out = frac.length > 0 ? `${whole}.${frac}` : whole
  return negative && out !== "0" ? `-${out}` : out
}

/** A `CPV Codes` line (`44131300-name`, `30192700-8 name`, `09132100`): its code, and a name after `-`, `–`, `:`. */
const cpvLinePattern = /^\s*(\d{8})(?:-\d)?\s*(?:[-–—:]\s*(.*?)\s*$|$|\s)/u

/** The lines that start with a CPV code, with it and their name (`""` for none), in order. */
const cpvLines = (lines: ReadonlyArray<string>): ReadonlyArray<{ readonly code: string; readonly name: string }> =>
  lines.flatMap((line) => {
    const m = cpvLinePattern.exec(line)
    return m?.[1] === undefined ? [] : [{ code: m[1], name: m[2] ?? "" }]
  })

/** 8-digit CPV codes at the start of lines (`44131300-name`, `30192700-8 name`), de-duplicated, in order. */
export const cpvCodes = (lines: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...new Set(cpvLines(lines).map((line) => line.code))
]

/**
 * The names a `CPV Codes` cell gives its codes (`44131300-թուջե կափարիչներ`), in Armenian or Russian script (an
 * English name says what the CPV's own English label says): each code's first name, as the source wrote it.
 */
export const cpvNames = (lines: ReadonlyArray<string>): ReadonlyArray<SourceLabel> => {
  const names: Array<SourceLabel> = []
  for (const { code, name } of cpvLines(lines)) {
    const language = /\p{Script=Armenian}/u.test(name) ? "hy" : /\p{Script=Cyrillic}/u.test(name) ? "ru" : undefined
    if (language !== undefined && [...name].length <= 200 && !names.some((n) => n.code === code))
      names.push({ code, language, name })
  }
  return names
}

/** A resource link made absolute against the page; null unless http(s). */
export const absoluteUrl = (href: string | null | undefined, base: string): string | null => {
  const ref = nonEmpty(href)
  if (ref === null) return null
  try {
    const url = new URL(ref, URL.canParse(base) ? base : undefined)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null
  } catch {
    return null
  }
}

/** Label normalisation for `dt`/`de_t` captions: cleaned, trailing colon dropped, case-folded. */
export const normalizeLabel = (label: string): string =>
  cleanText(label)
    .replace(/\s*[:：]\s*$/u, "")
    .toLocaleLowerCase("en")
    .normalize("NFC")
