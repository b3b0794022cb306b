import { BigDecimal, Option, Predicate } from "effect"
import { formatDecimal, parseDecimal } from "@tenders/core"

/** A TED search field value of any shape, flattened to its scalars (strings and numbers); `{}` and null give []. */
export const scalars = (value: unknown): Array<string | number> => {
  if (Predicate.isString(value) || Predicate.isNumber(value)) return [value]
  if (Array.isArray(value)) return value.filter((v) => Predicate.isString(v) || Predicate.isNumber(v))
  return []
}

/** Scalar or array field as trimmed strings (numbers via String), order and duplicates kept. */
export const strings = (value: unknown): Array<string> => scalars(value).map((v) => String(v).trim())

/** First non-empty string of a scalar or array field, else null. */
export const firstString = (value: unknown): string | null => strings(value).find((s) => s.length > 0) ?? null

/** Language keys in preference order: `eng`, then the official language(s), then whatever the map holds. */
export const languageOrder = (officialLanguages: ReadonlyArray<string>, map: { readonly [k: string]: unknown }) => {
  const order = ["eng", ...officialLanguages.map((l) => l.toLowerCase())]
  for (const key of Object.keys(map)) if (!order.includes(key)) order.push(key)
  return order
}

/**
 * Values of a field that may be a scalar, an array, a language map -> string or a language map -> array, in
 * the preferred language. With `length`, only a language whose list has exactly that length is taken.
 */
export const localized = (value: unknown, officialLanguages: ReadonlyArray<string>, length?: number): Array<string> => {
  if (!Predicate.isObject(value)) {
    const plain = strings(value)
    return length === undefined || plain.length === length ? plain : []
  }
  // `official-language` is source data: a language named `constructor` must find no inherited value.
  for (const lang of languageOrder(officialLanguages, value)) {
    const list = strings(Object.hasOwn(value, lang) ? value[lang] : undefined)
    const usable = length === undefined ? list.some((s) => s.length > 0) : list.length === length
    if (usable) return list
  }
  return []
}

/** First non-empty value of a possibly localised field in the preferred language, else null. */
export const localizedFirst = (value: unknown, officialLanguages: ReadonlyArray<string>): string | null =>
  localized(value, officialLanguages).find((s) => s.length > 0) ?? null

/**
 * A non-negative amount as a plain decimal string, or null. Strings are cleaned of (non-breaking/thin) spaces
 * and a decimal comma, never converted through a float; JSON numbers go through `String(n)` and are refused
 * when that yields an exponent.
 */
export const decimalOf = (value: unknown): string | null => {
  let text: string
  if (Predicate.isNumber(value)) {
    if (!Number.isFinite(value)) return null
    text = String(value)
    if (/e/iu.test(text)) return null
  } else if (Predicate.isString(value)) {
    text = value.replace(/[\s\u00a0\u2009\u202f]/gu, "")
    if (/^\d+,\d+$/u.test(text)) text = text.replace(",", ".")
  } else {
    return null
  }
  return /^\d+(\.\d+)?$/u.test(text) ? text : null
}

/** Sum of plain decimal strings without float arithmetic. */
export const sumDecimals = (values: ReadonlyArray<string>): string | null => {
  let total = BigDecimal.fromBigInt(0n)
  for (const value of values) {
    const parsed = parseDecimal(value)
    if (Option.isNone(parsed)) return null
    total = BigDecimal.sum(total, parsed.value)
  }
  return formatDecimal(total)
}

/** ISO 4217 code (upper-cased) or null. */
export const currencyOf = (value: unknown): string | null => {
  const code = firstString(value)?.toUpperCase() ?? null
  return code !== null && /^[A-Z]{3}$/u.test(code) ? code : null
}

/** Unique 8-digit CPV codes, in order of first appearance; anything else dropped. */
export const cpvCodes = (...values: ReadonlyArray<unknown>): Array<string> => {
  const out = new Set<string>()
  for (const value of values) for (const code of strings(value)) if (/^\d{8}$/u.test(code)) out.add(code)
  return [...out]
}
