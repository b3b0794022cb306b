import { BigDecimal, Option, Schema } from "effect"
import { BudgetCurrency } from "./Currency.ts"
import { type DecimalString, formatDecimal, parseDecimal } from "./Money.ts"
import type { RateFigure, RatesInUse } from "./Rates.ts"

/** The publishers whose reference rates are imported (docs/reference-rates.md). */
export const RatePublisher = Schema.Literals(["ECB", "CBR", "CBA"])
export type RatePublisher = typeof RatePublisher.Type

/** Each publisher's name as figures and hints show it. */
export const publisherNames: Record<RatePublisher, string> = {
  ECB: "European Central Bank",
  CBR: "Bank of Russia",
  CBA: "Central Bank of Armenia"
}

/** Where BGN's and EUR's figures come from: fixed, not published daily. */
export const fixedPublisher = "Fixed: base currency, and BGN's irrevocable conversion rate (Council of the EU)"

/** The figures no publisher is asked for: the base, and BGN (the euro since 2026-01-01 at its legal rate). */
export const fixedRates: ReadonlyArray<{ readonly currency: BudgetCurrency; readonly perEur: DecimalString }> = [
  { currency: "EUR", perEur: "1" },
  { currency: "BGN", perEur: "1.95583" }
]

/** The currency each national bank's rates give: its own, from its quote of the euro. */
export const nationalCurrencies = { CBR: "RUB", CBA: "AMD" } as const satisfies Record<
  Exclude<RatePublisher, "ECB">,
  BudgetCurrency
>

/** The spec's currencies the ECB's reference rates give: all but the fixed ones and the national banks'. */
export const ecbCurrencies: ReadonlyArray<BudgetCurrency> = BudgetCurrency.literals.filter(
  (currency) =>
    !fixedRates.some((fixed) => fixed.currency === currency) &&
    !Object.values<BudgetCurrency>(nationalCurrencies).includes(currency)
)

/** The day BGN's fixed rate is dated with. */
export const bgnFixedSince = "2026-01-01"

/** One publication as a parser read it: its day, and units per 1 EUR of each spec currency it gives. */
export interface RatePublication {
  readonly publisher: RatePublisher
  /** `YYYY-MM-DD` */
  readonly publishedOn: string
  readonly perEur: ReadonlyArray<{ readonly currency: BudgetCurrency; readonly perEur: DecimalString }>
}

/** Why a publication could not be read or used: a clear message naming the publisher and what is wrong. */
export class RatesRefused extends Schema.TaggedError<RatesRefused>()("RatesRefused", {
  message: Schema.String
}) {}

/** Why the publishers could not be reached (after the feed policy's retries). */
export class RatesUnavailable extends Schema.TaggedError<RatesUnavailable>()("RatesUnavailable", {
  message: Schema.String
}) {}

const quarterPattern = /^(\d{4})-Q([1-4])$/u
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/u

/** Whether a text names a quarter, `YYYY-Qn`. */
export const isQuarter = (text: string): boolean => quarterPattern.test(text)

/** The quarter of a day `YYYY-MM-DD`. */
export const quarterOf = (day: string): string => {
  const [, year = "", month = "1"] = dayPattern.exec(day) ?? []
  return `${year}-Q${Math.floor((Number(month) - 1) / 3) + 1}`
}

/** The first day of a quarter, `YYYY-MM-DD`. */
export const quarterFirstDay = (quarter: string): string => {
  const [, year = "", q = "1"] = quarterPattern.exec(quarter) ?? []
  return `${year}-${String((Number(q) - 1) * 3 + 1).padStart(2, "0")}-01`
}

/** The quarter after `quarter`. */
export const nextQuarter = (quarter: string): string => {
  const [, year = "0", q = "1"] = quarterPattern.exec(quarter) ?? []
  return Number(q) === 4 ? `${Number(year) + 1}-Q1` : `${year}-Q${Number(q) + 1}`
}

/**
 * The publication a quarter's rates come from: that of the quarter's first business day, which is the first
 * publication on or after the quarter's first day (publishers publish on business days only), within the quarter.
 */
export const publicationOfQuarter = (
  publications: ReadonlyArray<RatePublication>,
  quarter: string
): Option.Option<RatePublication> => {
  const first = quarterFirstDay(quarter)
  const candidates = publications
    .filter((p) => p.publishedOn >= first && quarterOf(p.publishedOn) === quarter)
    .toSorted((a, b) => (a.publishedOn < b.publishedOn ? -1 : a.publishedOn > b.publishedOn ? 1 : 0))
  return Option.fromNullishOr(candidates[0])
}

/**
 * Units of the home currency per 1 EUR from a national bank's quote of EUR (`value` home units per `nominal` EUR),
 * exactly in decimal: None when the quotient has no exact decimal form or an input is not a positive decimal.
 */
export const nationalPerEur = (value: string, nominal: string): Option.Option<DecimalString> => {
  const v = parseDecimal(value)
  const n = parseDecimal(nominal)
  if (Option.isNone(v) || Option.isNone(n) || !BigDecimal.isPositive(v.value) || !BigDecimal.isPositive(n.value)) {
    return Option.none()
  }
  return Option.flatMap(BigDecimal.divide(v.value, n.value), (q) =>
    BigDecimal.equals(BigDecimal.multiply(q, n.value), v.value) ? Option.some(formatDecimal(q)) : Option.none()
  )
}

/** One figure of a quarter as stored, with its provenance. */
export interface StoredRate extends RateFigure {
  readonly quarter: string
}

/**
 * A quarter's figures from its publications (each already the quarter's, see `publicationOfQuarter`) and the
 * fixed ones; `origins` says per publisher the URL fetched or the file read.
 */
export const quarterFigures = (
  quarter: string,
  publications: ReadonlyArray<RatePublication>,
  origins: Partial<Record<RatePublisher, string>>,
  fetchedAt: string
): ReadonlyArray<StoredRate> => {
  const fixed = fixedRates.map((f): StoredRate => ({
    quarter,
    currency: f.currency,
    perEur: f.perEur,
    publisher: fixedPublisher,
    publishedOn: f.currency === "BGN" ? bgnFixedSince : quarterFirstDay(quarter),
    origin: "fixed",
    fetchedAt,
    official: true
  }))
  const taken = new Set<BudgetCurrency>(fixedRates.map((f) => f.currency))
  const published = publications.flatMap((p) =>
    p.perEur.flatMap((r): Array<StoredRate> => {
      if (taken.has(r.currency)) return []
      taken.add(r.currency)
      const origin = origins[p.publisher] ?? publisherNames[p.publisher]
      const publisher = publisherNames[p.publisher]
      return [
        {
          quarter,
          currency: r.currency,
          perEur: r.perEur,
          publisher,
          publishedOn: p.publishedOn,
          origin,
          fetchedAt,
          official: true
        }
      ]
    })
  )
  return [...fixed, ...published]
}

/** The currencies of the spec a set of figures lacks. */
export const missingCurrencies = (
  figures: ReadonlyArray<{ readonly currency: BudgetCurrency }>
): ReadonlyArray<BudgetCurrency> => BudgetCurrency.literals.filter((c) => !figures.some((f) => f.currency === c))

/** The figures published before the rates' quarter began (the fixed ones, EUR and BGN, never go stale). */
export const staleFigures = (rates: RatesInUse): ReadonlyArray<RateFigure> => {
  const first = quarterFirstDay(rates.quarter)
  return rates.figures.filter((f) => f.publishedOn < first && !fixedRates.some((x) => x.currency === f.currency))
}

/**
 * What a conversion's rates were, for a hint in any language: the quarter, who published the figures (in the order of
 * `publisherNames`; none when `fallback` names the table file used instead), the currencies without a figure, and the
 * figures older than the quarter.
 */
export interface RatesFacts {
  readonly quarter: string
  readonly publishers: ReadonlyArray<string>
  readonly fallback: string | null
  readonly missing: ReadonlyArray<BudgetCurrency>
  readonly stale: ReadonlyArray<RateFigure>
}

/** The facts of the rates in use (`RatesFacts`). */
export const ratesFacts = (rates: RatesInUse): RatesFacts => {
  const named: ReadonlyArray<string> = Object.values(publisherNames)
  const rank = (publisher: string) => (named.includes(publisher) ? named.indexOf(publisher) : named.length)
  const publishers = [...new Set(rates.figures.map((f) => f.publisher).filter((p) => p !== fixedPublisher))].toSorted(
    (a, b) => rank(a) - rank(b)
  )
  return {
    quarter: rates.quarter,
    publishers: rates.fallback === null ? publishers : [],
    fallback: rates.fallback,
    missing: missingCurrencies(rates.figures),
    stale: staleFigures(rates)
  }
}

/**
 * What a hint says about the rates a conversion used: the quarter, the publishers (or the fallback table), and
 * which currencies are missing or stale; `lead` says what was done with budgets.
 */
export const ratesSentence = (rates: RatesInUse, lead: string): string => {
  const facts = ratesFacts(rates)
  const from =
    facts.fallback === null ? facts.publishers.join(", ") : `${facts.fallback}, a fallback: no rates imported`
  const parts = [`${lead} at reference rates of ${facts.quarter} (${from}).`]
  if (facts.missing.length > 0) {
    parts.push(`No reference rate for ${facts.missing.join(", ")}: budgets in them are skipped.`)
  }
  if (facts.stale.length > 0) {
    parts.push(`Older than ${facts.quarter}: ${facts.stale.map((f) => `${f.currency} (${f.publishedOn})`).join(", ")}.`)
  }
  return parts.join(" ")
}
