import { Effect } from "effect"
import type { Account } from "../Account.ts"
import { InvalidInput, LimitReached, PlanRequired } from "../Errors.ts"
import { type Filters, hasWord } from "../Filters.ts"
import { countRefusal } from "../Metrics.ts"
import { planRules } from "../Plan.ts"
import { Rates } from "../ports/Rates.ts"
import type { RatesInUse } from "../Rates.ts"
import { ratesSentence } from "../ReferenceRates.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import { WatchlistStore } from "../ports/WatchlistStore.ts"
import { SearchText } from "../TextQuery.ts"
import { matchesEverything, type WatchlistCreated, type WatchlistInput } from "../Watchlist.ts"
import { normalWebhookUrl, WebhookAllowHosts, webhookProblem } from "../WebhookTarget.ts"
import { requireFilterPlan, toSearchQuery } from "./SearchTenders.ts"

const invalid = (problem: string) => new InvalidInput({ message: `Invalid request: ${problem}` })

/**
 * Everything that makes a watchlist invalid whatever the plan (400): filters that match every tender, a webhook
 * target that is refused, a `q` of stop words only.
 */
const validate = Effect.fn("createWatchlist.validate")(function* (input: Pick<WatchlistInput, "filters" | "channels">) {
  if (matchesEverything(input.filters)) {
    return yield* invalid("filters match every tender; give q at least one word or add a structured filter")
  }
  const webhook = input.channels?.webhook
  const problem = webhook === undefined ? undefined : webhookProblem(webhook, yield* WebhookAllowHosts)
  if (problem !== undefined) return yield* invalid(problem)
  const plan = (yield* SearchText).queryPlan(input.filters.q ?? "")
  if (hasWord(input.filters.q) && plan.clauses.length === 0) {
    return yield* invalid(
      'filters.q has only stop words (such as "the" or "and"), which search ignores; use a more specific word'
    )
  }
})

/** What the caller's plan refuses (403 plan_required): structured filters and webhooks on Free. */
const requirePlan = Effect.fn("createWatchlist.requirePlan")(function* (input: WatchlistInput, account: Account) {
  yield* requireFilterPlan(input.filters, account.plan)
  if (input.channels?.webhook !== undefined && !planRules[account.plan].webhooks) {
    yield* countRefusal("plan_required")
    return yield* new PlanRequired({
      message: "Webhooks need the Pro or Business plan; on Free, alerts come by e-mail and GET /v1/alerts."
    })
  }
})

/**
 * How many open tenders match a watchlist's filters now, `q` read as typed (what a watchlist alerts on): the
 * `estimatedMatches` of its creation, and the dashboard's count.
 */
export const estimateMatches = Effect.fn("estimateMatches")(function* (filters: Filters) {
  return yield* (yield* TenderStore).count(yield* toSearchQuery(filters, 1, "as typed"))
})

/**
 * The `estimatedMatches` that saving these filters as a watchlist would give, with the same refusals as creation
 * (filters that match everything or only stop words, structured filters beyond the plan); nothing is saved.
 */
export const previewMatches = Effect.fn("previewMatches")(function* (filters: Filters, account: Account) {
  yield* validate({ filters })
  yield* requireFilterPlan(filters, account.plan)
  return yield* estimateMatches(filters)
})

const hintOf = (input: WatchlistInput, estimatedMatches: number, rates: RatesInUse): string | undefined => {
  const parts: Array<string> = []
  if (estimatedMatches === 0)
    parts.push("No open tender matches these filters today; you will be alerted when one does.")
  if (input.filters.budgetCurrency !== undefined) {
    parts.push(ratesSentence(rates, `Budgets are compared in ${input.filters.budgetCurrency}`))
  } else if (input.filters.minBudget !== undefined || input.filters.maxBudget !== undefined) {
    parts.push(
      "The budget range applies in each tender's own currency; set budgetCurrency to compare across currencies."
    )
  }
  return parts.length > 0 ? parts.join(" ") : undefined
}

/**
 * Saves filters as a watchlist (spec: POST /v1/watchlists). A request that is both invalid and beyond the plan is
 * 400 (DESIGN §2): every 400 is decided before any 403, then the plan's watchlist limit (403 limit_reached) is
 * checked atomically with the insert; 201 with the open tenders matching today.
 */
export const createWatchlist = Effect.fn("createWatchlist")(function* (input: WatchlistInput, account: Account) {
  yield* validate(input)
  yield* requirePlan(input, account)
  const rules = planRules[account.plan]
  const webhook = input.channels?.webhook
  const saved: WatchlistInput =
    webhook === undefined
      ? input
      : { ...input, channels: { ...input.channels, webhook: normalWebhookUrl(webhook, yield* WebhookAllowHosts) } }
  const id = yield* (yield* WatchlistStore).create(account.id, saved, rules.watchlists)
  if (id === undefined) {
    yield* countRefusal("limit_reached")
    return yield* new LimitReached({
      message:
        `The ${account.plan} plan allows ${rules.watchlists} watchlists and all are in use; ` +
        "delete one or upgrade your plan."
    })
  }
  const estimatedMatches = yield* estimateMatches(input.filters)
  const hint = hintOf(input, estimatedMatches, yield* (yield* Rates).current)
  const created: WatchlistCreated = { watchlistId: id, estimatedMatches, ...(hint === undefined ? {} : { hint }) }
  return created
})
