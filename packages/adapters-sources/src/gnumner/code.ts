import { armenianInLatin } from "@tenders/core"
import { Predicate } from "effect"

/**
 * Latin letters that render like Armenian capitals and end up in hand-typed codes (`ՀՀ ՖՆ-ԷԱՃԱՊՁԲ` with a Latin
 * `S` for `Տ`, an `O` for `Օ`, ...). Only applied inside tokens that also contain Armenian letters.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  O: "Օ",
  o: "Օ",
  U: "Ս",
  u: "Ս",
  S: "Տ",
  L: "Լ",
  h: "Հ",
  n: "Ո",
  q: "Զ",
  g: "Ց",
  p: "Ք"
}

const ARMENIAN = /[\u0531-\u0587]/u
const DASHES = /[\u002D\u058A\u2010-\u2015\u2212\uFE63\uFF0D]/gu

/** Maps look-alike Latin letters to Armenian inside Armenian tokens and upper-cases the token. */
const fixToken = (token: string): string =>
  ARMENIAN.test(token) ? token.replace(/[A-Za-z]/gu, (ch) => LOOK_ALIKES[ch] ?? ch).toLocaleUpperCase("hy") : token

/** The code as printed: NFC, trimmed, whitespace collapsed to single spaces. */
export const displayCode = (raw: string): string => raw.normalize("NFC").replace(/\s+/gu, " ").trim()

/**
 * The procedure key: one spelling per procurement code, so amendments and failure notices link to the tender.
 * NFC; unified dashes; no spaces around `-` and `/`; `Հ.Հ.`/`ՀՀ-`/`ՀՀ` + buyer forms become `ՀՀ <buyer>`; the other
 * space-separated parts are joined with `-` (`ՀՀ ՖՆ ԷԱՃԱՊՁԲ-26/15` == `ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/15`); Latin look-alikes fixed.
 */
export const canonicalCode = (raw: string): string => {
  const flat = displayCode(raw)
    .replace(DASHES, "-")
    .replace(/\s*([-/])\s*/gu, "$1")
    .replace(/-+/gu, "-")
    .replace(/^[-/]+|[-/]+$/gu, "")
  const tokens = flat
    .split(/[\s-]+/u)
    .filter((t) => t.length > 0)
    .map(fixToken)
  const first = tokens[0] ?? ""
  // `ՀՀ`, `Հ.Հ.`, `ՀՀՖՆ` (prefix glued to the buyer): split off the republic prefix.
  const republic = /^Հ\.?Հ\.?(.*)$/u.exec(first)
  if (republic === null) return tokens.join("-")
  const glued = republic[1] ?? ""
  const rest = glued.length > 0 ? [glued, ...tokens.slice(1)] : tokens.slice(1)
  const [buyer, ...tail] = rest
  if (buyer === undefined) return "ՀՀ"
  return tail.length > 0 ? `ՀՀ ${buyer}-${tail.join("-")}` : `ՀՀ ${buyer}`
}

/**
 * The ASCII slug of a code (`ՀՀ ՖՆ ԷԱՃԱՊՁԲ-26/15` -> `hh-fn-eachapdzb-26-15`): its letters in Latin by core's
 * `armenianLatin` as it stands (ը as y), anything else a dash. An id must never change, nor may those letters.
 */
export const armenianSlug = (code: string): string =>
  armenianInLatin(code.normalize("NFC").toLocaleLowerCase("hy"))
    .replace(/[^a-z0-9]+/gu, "-")
    .replace(/^-+|-+$/gu, "")

/** The ASCII id for a procurement code. */
export const gnumnerId = (code: string): string => `gnumner-${armenianSlug(canonicalCode(code))}`

/** The procurement code in square brackets of a listing title and the title without it. */
export const splitBracketedCode = (text: string): { readonly code: string | null; readonly title: string } => {
  const match = /\[([^\]]*)\]/u.exec(text)
  const code = match?.[1] === undefined ? null : displayCode(match[1])
  const title = match === null ? text : text.replace(match[0], " ")
  return {
    code: code === null || code.length === 0 ? null : code,
    title: displayCode(title)
      .replace(/^[\s\-–—:.,]+/u, "")
      .trim()
  }
}

/** Marz names (sample-data spelling) and their genitive forms as they appear in buyer names and titles. */
const MARZES: ReadonlyArray<readonly [region: string, genitive: string]> = [
  ["Արագածոտն", "Արագածոտնի մարզ"],
  ["Արարատ", "Արարատի մարզ"],
  ["Արմավիր", "Արմավիրի մարզ"],
  ["Գեղարքունիք", "Գեղարքունիքի մարզ"],
  ["Կոտայք", "Կոտայքի մարզ"],
  ["Լոռի", "Լոռու մարզ"],
  ["Շիրակ", "Շիրակի մարզ"],
  ["Սյունիք", "Սյունիքի մարզ"],
  ["Վայոց ձոր", "Վայոց ձորի մարզ"],
  ["Տավուշ", "Տավուշի մարզ"]
]

/**
 * Region heuristic of the field guide [inferred]: a marz named in the buyer or title; Yerevan for `ԵՔ` (Yerevan
 * municipality) codes or a buyer/title naming Երևան. Values are Armenian marz names like the sample data
 * (docs/sample-data.md: "gnumner: marz (`Շիրակ`)"); null when nothing matches (nationwide bodies).
 */
export const regionFor = (code: string, texts: ReadonlyArray<string | null>): string | null => {
  const text = texts.filter(Predicate.isNotNull).join(" ")
  for (const [region, genitive] of MARZES) {
    if (text.includes(genitive)) return region
  }
  if (canonicalCode(code).startsWith("ԵՔ-") || /Երևան/u.test(text)) return "Երևան"
  return null
}
