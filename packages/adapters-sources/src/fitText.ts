import { characterCount } from "@tenders/core"

const loneSurrogate = /\p{Cs}/gu
const controlOtherThanSpace = /(?!\s)\p{Cc}/gu
const whitespaceRun = /[\s\u200B]+/gu

/**
 * Source text as core's text rule accepts it: lone UTF-16 surrogates dropped, whitespace runs (tabs and newlines
 * included) one space, every other control character dropped, trimmed.
 */
export const cleanText = (text: string): string =>
  text.replace(loneSurrogate, "").replace(controlOtherThanSpace, "").replace(whitespaceRun, " ").trim()

/**
 * {@link cleanText}, then at most `max` characters (code points, as core counts them): longer text is cut at the
 * last word boundary of its second half (else mid-word) and ends with "…".
 */
export const fitText = (text: string, max: number): string => {
  const clean = cleanText(text)
  if (characterCount(clean) <= max) return clean
  const head = Array.from(clean)
    .slice(0, Math.max(0, max - 1))
    .join("")
  const space = head.lastIndexOf(" ")
  const cut = space > head.length / 2 ? head.slice(0, space) : head
  return `${cut.trimEnd()}…`
}

/** {@link fitText} for an optional field: null stays null, and so does text that cleans to nothing. */
export const fitOptionalText = (text: string | null, max: number): string | null => {
  if (text === null) return null
  const fitted = fitText(text, max)
  return fitted === "" ? null : fitted
}
