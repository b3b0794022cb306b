import { Schema } from "effect"

/** The currencies a budget range may be expressed in (spec, Filters.budgetCurrency). */
export const BudgetCurrency = Schema.Literals([
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "NOK",
  "ISK",
  "SEK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "BGN",
  "AMD",
  "RUB"
])
export type BudgetCurrency = typeof BudgetCurrency.Type

/** ISO 4217 alphabetic code as stored on a tender. */
export const CurrencyCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/u))
