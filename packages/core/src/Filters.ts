import { Option, Schema } from "effect"
import { BudgetCurrency } from "./Currency.ts"
import { instantExpectation, parseInstant } from "./Time.ts"
import { Text } from "./Text.ts"

const Country = Schema.String.check(Schema.isPattern(/^[A-Za-z]{2}$/u))
const CpvPrefix = Schema.String.check(Schema.isPattern(/^\d{2,8}(-\d)?$/u))
const Budget = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
const DeadlineAfter = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/u),
  Schema.makeFilter((s: string) => Option.isSome(parseInstant(s)) || `Expected ${instantExpectation}`)
).annotate({ description: "ISO 8601 date (YYYY-MM-DD, meaning 00:00Z) or date-time with Z or a numeric offset" })

const filterFields = {
  countries: Schema.optionalKey(Schema.Array(Country).check(Schema.isMaxLength(50))),
  cpv: Schema.optionalKey(Schema.Array(CpvPrefix).check(Schema.isMaxLength(50))),
  minBudget: Schema.optionalKey(Budget),
  maxBudget: Schema.optionalKey(Budget),
  deadlineAfter: Schema.optionalKey(DeadlineAfter),
  budgetCurrency: Schema.optionalKey(BudgetCurrency)
}

const budgetOrder = Schema.makeFilter(
  (f: { readonly minBudget?: number; readonly maxBudget?: number }) =>
    f.minBudget === undefined || f.maxBudget === undefined || f.minBudget <= f.maxBudget
      ? true
      : "minBudget must not be above maxBudget",
  { expected: "minBudget <= maxBudget" }
)

const Query = Text({ max: 500 })

/** Watchlist filters: every field optional. */
export const Filters = Schema.Struct({ q: Schema.optionalKey(Query), ...filterFields })
  .check(budgetOrder)
  .annotate({
    identifier: "Filters"
  })
export type Filters = typeof Filters.Type

/** The search request body: filters with `q` required, plus `limit`. */
export const SearchRequest = Schema.Struct({
  q: Query,
  ...filterFields,
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 20 })))
})
  .check(budgetOrder)
  .annotate({ identifier: "SearchRequest" })
export type SearchRequest = typeof SearchRequest.Type

/** Names of the structured filters (everything but `q` and `limit`). */
export const structuredFilterNames = [
  "countries",
  "cpv",
  "minBudget",
  "maxBudget",
  "deadlineAfter",
  "budgetCurrency"
] as const

/** The structured filters a request actually uses (empty lists narrow nothing and do not count). */
export const usedStructuredFilters = (filters: Omit<Filters, "q">): ReadonlyArray<string> =>
  structuredFilterNames.filter((name) => {
    const value = filters[name]
    return Array.isArray(value) ? value.length > 0 : value !== undefined
  })

/** True when a free-text query contains at least one word. */
export const hasWord = (q: string | undefined): boolean => q !== undefined && /[\p{L}\p{N}]/u.test(q)

/**
 * Normalises a CPV code or prefix: drop the check digit and the trailing zeros beyond the second digit
 * (`45000000-7` -> `45`, `45210000` -> `4521`, `452` -> `452`).
 */
export const normalizeCpvPrefix = (code: string): string => {
  const digits = code.split("-")[0] ?? ""
  const trimmed = digits.replace(/0+$/u, "")
  return trimmed.length >= 2 ? trimmed : digits.slice(0, 2)
}

/** Every prefix (2..8 digits) of a stored CPV code, for prefix matching by set intersection. */
export const cpvPrefixesOf = (code: string): ReadonlyArray<string> => {
  const digits = (code.split("-")[0] ?? "").slice(0, 8)
  const out: Array<string> = []
  for (let n = 2; n <= digits.length; n++) out.push(digits.slice(0, n))
  return out
}

/** Every CPV prefix a tender is found by: those of its own codes and of its lots' codes, each once. */
export const tenderCpvPrefixes = (record: {
  readonly cpvCodes: ReadonlyArray<string>
  readonly lots: ReadonlyArray<{ readonly cpvCodes: ReadonlyArray<string> }>
}): ReadonlyArray<string> => [
  ...new Set([...record.cpvCodes, ...record.lots.flatMap((l) => l.cpvCodes)].flatMap(cpvPrefixesOf))
]
