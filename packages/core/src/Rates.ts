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

/** A quarterly reference-rate table (EUR base), shipped as data and replaceable by operators. */
export const RatesTable = Schema.Struct({
  quarter: Schema.String.check(Schema.isPattern(/^\d{4}-Q[1-4]$/u)),
  base: Schema.Literal("EUR"),
  note: Schema.optionalKey(Schema.String),
  rates: Schema.Record(BudgetCurrency, ReferenceRate)
})
export type RatesTable = typeof RatesTable.Type

/** A budget bound expressed in one tender currency. */
export interface CurrencyBound {
  readonly currency: BudgetCurrency
  readonly min: BigDecimal.BigDecimal | null
  readonly max: BigDecimal.BigDecimal | null
}

const scale = 6

const perEur = (table: RatesTable, currency: BudgetCurrency): BigDecimal.BigDecimal =>
  currency === "EUR" ? BigDecimal.fromBigInt(1n) : Option.getOrThrow(parseDecimal(table.rates[currency].perEur))

const convert = (
  amount: BigDecimal.BigDecimal,
  from: BudgetCurrency,
  to: BudgetCurrency,
  table: RatesTable,
  mode: "floor" | "ceil"
) => {
  const inEur = BigDecimal.divide(amount, perEur(table, from))
  const converted = Option.map(inEur, (eur) => BigDecimal.multiply(eur, perEur(table, to)))
  return Option.map(converted, (value) => BigDecimal.round(value, { scale, mode }))
}

/**
 * Re-expresses a budget range given in `target` currency as one range per tender currency,
 * so the store compares each tender's own amount (rounded outward so no boundary match is lost).
 */
export const boundsPerCurrency = (
  table: RatesTable,
  target: BudgetCurrency,
  min: BigDecimal.BigDecimal | null,
  max: BigDecimal.BigDecimal | null
): ReadonlyArray<CurrencyBound> =>
  BudgetCurrency.literals.map((currency) => ({
    currency,
    min: min === null ? null : Option.getOrNull(convert(min, target, currency, table, "floor")),
    max: max === null ? null : Option.getOrNull(convert(max, target, currency, table, "ceil"))
  }))
