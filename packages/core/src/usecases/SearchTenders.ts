import { DateTime, Duration, Effect } from "effect"
import { PlanRequired } from "../Errors.ts"
import { type Filters, hasWord, type SearchRequest, usedStructuredFilters } from "../Filters.ts"
import { toFilterQuery } from "../FilterQuery.ts"
import { degradedSources } from "../Health.ts"
import { countRefusal, recordSearch, searchClass } from "../Metrics.ts"
import { type Plan, planRules } from "../Plan.ts"
import { Rates } from "../ports/Rates.ts"
import { ratesFingerprint } from "../Rates.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import { type QueryPlan, SearchText } from "../TextQuery.ts"
import { type HintInput, type SearchQuery, type SearchResponse, searchHint } from "../Search.ts"
import { toCard } from "../TenderRead.ts"
import { explainSearch, searchResponseOf } from "./SearchAnswer.ts"
import { SearchCache } from "./SearchCache.ts"
import { searchSourceHealth } from "./SourceHealth.ts"

/** Refuses structured filters on plans without them (403 plan_required). */
export const requireFilterPlan = Effect.fnUntraced(function* (filters: Filters, plan: Plan) {
  const used = usedStructuredFilters(filters)
  if (used.length > 0 && !planRules[plan].structuredFilters) {
    yield* countRefusal("plan_required")
    return yield* new PlanRequired({
      message: `Structured filters (${used.join(", ")}) need the Pro or Business plan; on Free, search with q alone.`
    })
  }
})

/**
 * The plan of a search's `q`: words the index does not know are read as the most similar indexed word (a
 * correction, ranked below exact matches, and said in the hint).
 */
export const planSearchText = Effect.fnUntraced(function* (q: string) {
  return yield* correctPlan((yield* SearchText).queryPlan(q))
})

/** A plan with the words the index does not know read as corrected (`planSearchText`). */
const correctPlan = Effect.fnUntraced(function* (plan: QueryPlan) {
  const text = yield* SearchText
  const questions = text.correctable(plan)
  if (questions.length === 0) return plan
  const corrections = yield* (yield* TenderStore).spellings(questions)
  return corrections.size === 0 ? plan : text.corrected(plan, corrections)
})

/**
 * A search's query and its tenders, `q` corrected as `planSearchText` says. A query of one word runs as typed first:
 * when it finds tenders, the word is in an open tender, not unknown, and that is the answer, with no lookup of the
 * vocabulary (a rare word's search is then one statement); else, and for longer queries at once (a partial match
 * of several words would cost a search for nothing), the words the index does not know are read as corrected and,
 * if any was, the search runs with them.
 */
const searchCorrected = Effect.fnUntraced(function* (request: SearchRequest, limit: number) {
  const store = yield* TenderStore
  const typed = yield* toSearchQuery(request, limit, "as typed")
  if (typed.text.clauses.length !== 1) {
    const query = { ...typed, text: yield* correctPlan(typed.text) }
    return { query, found: yield* store.search(query) }
  }
  const found = yield* store.search(typed)
  if (found.tenders.length > 0 && !found.approximate) return { query: typed, found }
  const text = yield* correctPlan(typed.text)
  if (text === typed.text) return { query: typed, found }
  const query = { ...typed, text }
  return { query, found: yield* store.search(query) }
})

/**
 * Normalises validated filters into the store's query, with the plan of their `q`: corrected for a search, as typed
 * for what a watchlist matches (alerts run unattended: a correction guessed from today's index must not change
 * what a saved watchlist means as the index grows).
 */
export const toSearchQuery = Effect.fnUntraced(function* (
  filters: Filters,
  limit: number,
  spelling: "correct" | "as typed" = "correct"
) {
  const rates = yield* (yield* Rates).current
  const q = filters.q ?? ""
  const text = spelling === "correct" ? yield* planSearchText(q) : (yield* SearchText).queryPlan(q)
  const query: SearchQuery = { ...toFilterQuery(filters, rates, text), limit, now: yield* DateTime.now }
  return query
})

/** Runs a search whose plan rules were checked: the store's tenders, the hint's notes, the sources' health. */
const runSearch = Effect.fnUntraced(function* (request: SearchRequest) {
  const limit = request.limit ?? 10
  // The sources' health (for `degradedSources`) is read while the search runs: on a pool of connections it adds
  // no round trip to the answer's time.
  const [took, [{ query, found }, health]] = yield* Effect.timed(
    Effect.all([searchCorrected(request, limit), searchSourceHealth], { concurrency: 2 })
  )
  const rates = yield* (yield* Rates).current
  const notes: HintInput = {
    found: found.tenders.length,
    approximate: found.approximate,
    limit,
    textUsed: hasWord(request.q),
    filtersUsed: usedStructuredFilters(request),
    budgetCurrency: request.budgetCurrency,
    ratesQuarter: rates.quarter,
    rates,
    also: query.text.also,
    corrections: query.text.corrections
  }
  yield* recordSearch(
    Duration.toSeconds(took),
    searchClass(query.text, found.approximate),
    notes.filtersUsed.length > 0
  )
  const hint = searchHint(notes)
  const degraded = degradedSources(health.report)
  const response: SearchResponse = {
    results: found.tenders.map(toCard),
    ...(hint === undefined ? {} : { hint }),
    ...(degraded.length === 0 ? {} : { degradedSources: degraded })
  }
  return yield* explainSearch(response, notes, health.changesAt)
})

/**
 * What a search's answer is made of besides the store, as this process holds it now: the reference rates (read from
 * the store again after `ratesCacheTtl`) and the text analysis (its version, with the packs, and the source labels it
 * uses: taken from the store at the background work's tick), which follow another process's writes at their own
 * pace. A kept answer is given again only to a search that would be made of the same.
 */
const madeOf = Effect.gen(function* () {
  const text = yield* SearchText
  return `${ratesFingerprint(yield* (yield* Rates).current)}:${text.version}:${text.sourceLabelCount}`
})

/**
 * Searches open tenders (spec: POST /v1/tenders/search), with what the hint was made from: a page in another
 * language says the same in its own words. Answered from the result cache (`SearchCache`) when the same search was
 * made since the store last changed.
 */
export const searchTendersExplained = Effect.fn("searchTenders")(function* (request: SearchRequest, plan: Plan) {
  yield* requireFilterPlan(request, plan)
  return yield* (yield* SearchCache).answer(request, yield* madeOf, runSearch(request))
})

/** Searches open tenders (spec: POST /v1/tenders/search): the answer's response (REST writes its JSON as kept). */
export const searchTenders = (request: SearchRequest, plan: Plan) =>
  Effect.map(searchTendersExplained(request, plan), searchResponseOf)
