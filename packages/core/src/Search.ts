import { type DateTime, Schema } from "effect"
import type { BudgetCurrency } from "./Currency.ts"
import type { FilterQuery } from "./FilterQuery.ts"
import type { RatesInUse } from "./Rates.ts"
import { ratesSentence } from "./ReferenceRates.ts"
import { SourceCode } from "./Source.ts"
import { TenderCard } from "./Tender.ts"

/** The search response body. */
export const SearchResponse = Schema.Struct({
  results: Schema.Array(TenderCard).check(Schema.isMaxLength(20)),
  hint: Schema.optionalKey(Schema.String),
  degradedSources: Schema.optionalKey(Schema.Array(SourceCode))
}).annotate({ identifier: "SearchResponse" })
export type SearchResponse = typeof SearchResponse.Type

/** A validated, normalised search as the store runs it. */
export interface SearchQuery extends FilterQuery {
  readonly limit: number
  readonly now: DateTime.Utc
}

/** Inputs to the hint about few or no results. */
export interface HintInput {
  readonly found: number
  readonly approximate: boolean
  readonly limit: number
  readonly textUsed: boolean
  readonly filtersUsed: ReadonlyArray<string>
  readonly budgetCurrency: BudgetCurrency | undefined
  readonly ratesQuarter: string
  /** The rates used, for the publishers and the missing or stale figures (the quarter alone without them). */
  readonly rates?: RatesInUse | undefined
  /** What the query was widened with (SearchText.queryPlan). */
  readonly also: ReadonlyArray<string>
  readonly corrections: ReadonlyArray<readonly [string, string]>
}

const advice: Record<string, string> = {
  countries: "add more countries or drop `countries`",
  cpv: "use a shorter CPV prefix (e.g. the first 2-3 digits) or drop `cpv`",
  minBudget: "lower `minBudget`",
  maxBudget: "raise `maxBudget`",
  deadlineAfter: "move `deadlineAfter` earlier or drop it",
  budgetCurrency: "drop `budgetCurrency` (tenders in other currencies or without a budget are skipped)"
}

const approximateHint = "Not every result has every word of `q`: the tenders that match best come first."

/** The `hint` of a search response, or undefined when results filled the limit and no note applies. */
export const searchHint = (input: HintInput): string | undefined => {
  const parts: Array<string> = []
  if (input.corrections.length > 0) {
    parts.push(`Read ${input.corrections.map(([typed, read]) => `"${typed}" as "${read}"`).join(", ")}.`)
  }
  if (input.approximate) {
    parts.push(approximateHint)
  } else if (input.found < input.limit) {
    const lead =
      input.found === 0
        ? "No open tenders match."
        : `Only ${input.found} open tender${input.found === 1 ? "" : "s"} match.`
    const steps = input.filtersUsed.map((name) => advice[name]).filter((s): s is string => s !== undefined)
    if (input.textUsed) steps.push("use fewer or more general words in `q`")
    parts.push(steps.length > 0 ? `${lead} To broaden: ${steps.join("; ")}.` : lead)
  }
  if (input.also.length > 0) parts.push(`Also searched: ${input.also.join(", ")}.`)
  if (input.budgetCurrency !== undefined) {
    const lead = `Budgets converted to ${input.budgetCurrency}`
    parts.push(
      input.rates === undefined
        ? `${lead} at reference rates of ${input.ratesQuarter}.`
        : ratesSentence(input.rates, lead)
    )
  }
  return parts.length > 0 ? parts.join(" ") : undefined
}
