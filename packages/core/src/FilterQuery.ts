import { type BigDecimal, type DateTime, Option } from "effect"
import { type Filters, normalizeCpvPrefix } from "./Filters.ts"
import { decimalFromNumber } from "./Money.ts"
import { boundsPerCurrency, type RatesInUse } from "./Rates.ts"
import type { QueryPlan } from "./TextQuery.ts"
import { parseInstant } from "./Time.ts"

/** An inclusive amount range; a null side is open. */
export interface AmountRange {
  readonly min: BigDecimal.BigDecimal | null
  readonly max: BigDecimal.BigDecimal | null
}

/**
 * How a budget filter applies: a range in each tender's own currency, or (with `budgetCurrency`) one range per
 * listed currency (keyed by ISO 4217 code), re-expressed at the reference rates; a tender in another currency, or
 * with no budget where a range is set, never matches.
 */
export type BudgetCondition =
  | { readonly _tag: "Own"; readonly range: AmountRange }
  | { readonly _tag: "Converted"; readonly ranges: ReadonlyMap<string, AmountRange> }

/** A validated filter set, normalised once for the store's SQL and for the in-memory matcher alike. */
export interface FilterQuery {
  /** The free text, analysed (SearchText.queryPlan); no clause when there is no `q`. */
  readonly text: QueryPlan
  /** Upper-case ISO 3166-1 alpha-2 codes, each once. */
  readonly countries: ReadonlyArray<string>
  readonly cpvPrefixes: ReadonlyArray<string>
  readonly budget: BudgetCondition | undefined
  readonly deadlineAfter: DateTime.Utc | undefined
}

const amount = (n: number | undefined) => (n === undefined ? null : decimalFromNumber(n))

/** Whether a range bounds anything. */
export const isBounded = (range: AmountRange): boolean => range.min !== null || range.max !== null

/**
 * Normalises validated filters with the plan of their `q`; the one place where the JSON numbers of a budget range
 * become decimals.
 */
export const toFilterQuery = (filters: Filters, rates: RatesInUse, text: QueryPlan): FilterQuery => {
  const ranged = filters.minBudget !== undefined || filters.maxBudget !== undefined
  const budget: BudgetCondition | undefined =
    filters.budgetCurrency !== undefined
      ? {
          _tag: "Converted",
          ranges: new Map(
            boundsPerCurrency(rates, filters.budgetCurrency, amount(filters.minBudget), amount(filters.maxBudget))
              // A currency the range could not be converted into (a zero rate) matches nothing.
              .filter((b) => (b.min !== null) === (filters.minBudget !== undefined))
              .filter((b) => (b.max !== null) === (filters.maxBudget !== undefined))
              .map((bound) => [bound.currency, { min: bound.min, max: bound.max }])
          )
        }
      : ranged
        ? { _tag: "Own", range: { min: amount(filters.minBudget), max: amount(filters.maxBudget) } }
        : undefined
  return {
    text,
    countries: [...new Set((filters.countries ?? []).map((c) => c.toUpperCase()))],
    cpvPrefixes: [...new Set((filters.cpv ?? []).map(normalizeCpvPrefix))],
    budget,
    deadlineAfter:
      filters.deadlineAfter === undefined ? undefined : Option.getOrUndefined(parseInstant(filters.deadlineAfter))
  }
}
