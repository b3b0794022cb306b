import { Effect } from "effect"
import type { Account } from "../Account.ts"
import { InvalidInput, LimitReached, PlanRequired } from "../Errors.ts"
import { planRules } from "../Plan.ts"
import { Rates } from "../ports/Rates.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import { WatchlistStore } from "../ports/WatchlistStore.ts"
import {
  matchesEverything,
  WebhookAllowHosts,
  type WatchlistCreated,
  type WatchlistInput,
  webhookProblem
} from "../Watchlist.ts"
import { hasWord } from "../Filters.ts"
import { tokenize } from "../TextQuery.ts"
import { requireFilterPlan, toSearchQuery } from "./SearchTenders.ts"

/** Saves filters as a watchlist (spec: POST /v1/watchlists): 400, 403 plan_required / limit_reached, 201. */
export const createWatchlist = Effect.fn("createWatchlist")(function* (input: WatchlistInput, account: Account) {
  if (matchesEverything(input.filters)) {
    return yield* new InvalidInput({
      message: "Invalid request: filters match every tender; give q at least one word or add a structured filter"
    })
  }
  const webhook = input.channels?.webhook
  const problem = webhook === undefined ? undefined : webhookProblem(webhook, yield* WebhookAllowHosts)
  if (problem !== undefined) return yield* new InvalidInput({ message: `Invalid request: ${problem}` })
  const rules = planRules[account.plan]
  yield* requireFilterPlan(input.filters, account.plan)
  if (webhook !== undefined && !rules.webhooks) {
    return yield* new PlanRequired({
      message: "Webhooks need the Pro or Business plan; on Free, alerts come by e-mail and GET /v1/alerts."
    })
  }
  const store = yield* WatchlistStore
  const tokens = yield* store.resolveTokens(tokenize(input.filters.q ?? ""))
  if (hasWord(input.filters.q) && tokens.length === 0) {
    return yield* new InvalidInput({
      message:
        'Invalid request: filters.q has only stop words (such as "the" or "and"), which search ignores; use a more specific word'
    })
  }
  const id = yield* store.create(account.id, input, tokens, rules.watchlists)
  if (id === undefined) {
    return yield* new LimitReached({
      message: `The ${account.plan} plan allows ${rules.watchlists} watchlists and all are in use; delete one or upgrade your plan.`
    })
  }
  const tenders = yield* TenderStore
  const estimatedMatches = yield* tenders.count(yield* toSearchQuery(input.filters, 1))
  const parts: Array<string> = []
  if (estimatedMatches === 0)
    parts.push("No open tender matches these filters today; you will be alerted when one does.")
  if (input.filters.budgetCurrency !== undefined) {
    parts.push(
      `Budgets are compared in ${input.filters.budgetCurrency} at reference rates of ${(yield* Rates).table.quarter}.`
    )
  } else if (input.filters.minBudget !== undefined || input.filters.maxBudget !== undefined) {
    parts.push(
      "The budget range applies in each tender's own currency; set budgetCurrency to compare across currencies."
    )
  }
  const created: WatchlistCreated = {
    watchlistId: id,
    estimatedMatches,
    ...(parts.length > 0 ? { hint: parts.join(" ") } : {})
  }
  return created
})
