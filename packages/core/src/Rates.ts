import { BigDecimal, Option, Schema } from "effect"
import { BudgetCurrency } from "./Currency.ts"
import { DecimalString, parseDecimal } from "./Money.ts"

/** One reference figure: units of the currency per 1 EUR, with where it comes from. */
export const ReferenceRate = Schema.Struct({
  perEur: DecimalString,
  date: Schema.String,
  source: Schema.String,
  official: Schema.Boolean,
  note: Schema.optionalKey(Schema.String)
})

/** A quarterly reference-rate table (EUR base) as a file: the bundled fallback, or an operator's replacement. */
export const RatesTable = Schema.Struct({
  quarter: Schema.String.check(Schema.isPattern(/^\d{4}-Q[1-4]$/u)),
  base: Schema.Literal("EUR"),
  note: Schema.optionalKey(Schema.String),
  rates: Schema.Record(BudgetCurrency, ReferenceRate)
})
export type RatesTable = typeof RatesTable.Type

/** One figure in use: units of `currency` per 1 EUR, and its provenance (publisher, publication day, origin). */
export interface RateFigure {
  readonly currency: BudgetCurrency
  readonly perEur: DecimalString
  readonly publisher: string
  /** The publication's day, `YYYY-MM-DD`. */
  readonly publishedOn: string
  /** The URL fetched, the file read, or the table it came from. */
  readonly origin: string
  /** When it was fetched or read (UTC, ISO), null for the bundled table. */
  readonly fetchedAt: string | null
  readonly official: boolean
}

/**
 * The rates a conversion uses: the newest quarter imported from the publishers (`fallback` null), or a table file
 * (`fallback` names it: the bundled table, or an operator's). A currency without a figure is skipped by conversions.
 */
export interface RatesInUse {
  readonly quarter: string
  readonly fallback: string | null
  readonly figures: ReadonlyArray<RateFigure>
}

const tablesSeen = new Map<string, number>()
const fingerprints = new WeakMap<RatesInUse, number>()

/**
 * A number that is the same for the same rates in use (every field of every figure) and differs for others: worked
 * out once for each table read (this process numbers the tables it sees, a handful in its life).
 */
export const ratesFingerprint = (rates: RatesInUse): number => {
  let known = fingerprints.get(rates)
  if (known === undefined) {
    const table = JSON.stringify(rates)
    known = tablesSeen.get(table) ?? tablesSeen.size
    tablesSeen.set(table, known)
    fingerprints.set(rates, known)
  }
  return known
}

/** A rates table file as the rates in use, `origin` naming it (e.g. "the bundled table"). */
export const ratesInUseOf = (table: RatesTable, origin: string): RatesInUse => ({
  quarter: table.quarter,
  fallback: origin,
  figures: BudgetCurrency.literals.map((currency) => {
    const rate = table.rates[currency]
    return {
      currency,
      perEur: rate.perEur,
      publisher: rate.source,
      publishedOn: rate.date,
      origin,
      fetchedAt: null,
      official: rate.official
    }
  })
})

/** A budget bound expressed in one tender currency. */
export interface CurrencyBound {
  readonly currency: BudgetCurrency
  readonly min: BigDecimal.BigDecimal | null
  readonly max: BigDecimal.BigDecimal | null
}

const scale = 6

const perEurOf = (figure: RateFigure): Option.Option<BigDecimal.BigDecimal> =>
  figure.currency === "EUR" ? Option.some(BigDecimal.fromBigInt(1n)) : parseDecimal(figure.perEur)

const convert = (
  amount: BigDecimal.BigDecimal,
  from: BigDecimal.BigDecimal,
  to: BigDecimal.BigDecimal,
  mode: "floor" | "ceil"
) => {
  const converted = Option.map(BigDecimal.divide(amount, from), (eur) => BigDecimal.multiply(eur, to))
  return Option.map(converted, (value) => BigDecimal.round(value, { scale, mode }))
}

/**
 * Re-expresses a budget range given in `target` currency as one range per tender currency that has a figure,
 * so the store compares each tender's own amount (rounded outward so no boundary match is lost). Without a
 * figure for `target` nothing can be converted: no currency is listed, so every budget is skipped.
 */
export const boundsPerCurrency = (
  rates: RatesInUse,
  target: BudgetCurrency,
  min: BigDecimal.BigDecimal | null,
  max: BigDecimal.BigDecimal | null
): ReadonlyArray<CurrencyBound> => {
  const known = rates.figures.flatMap((figure) =>
    Option.match(perEurOf(figure), {
      onNone: () => [],
      onSome: (perEur) => (BigDecimal.isPositive(perEur) ? [{ currency: figure.currency, perEur }] : [])
    })
  )
  const from = known.find((k) => k.currency === target)
  if (from === undefined) return []
  return known.map(({ currency, perEur }) => ({
    currency,
    min: min === null ? null : Option.getOrNull(convert(min, from.perEur, perEur, "floor")),
    max: max === null ? null : Option.getOrNull(convert(max, from.perEur, perEur, "ceil"))
  }))
}
