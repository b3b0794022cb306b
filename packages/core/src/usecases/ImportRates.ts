import { DateTime, Duration, Effect, Option } from "effect"
import { BudgetCurrency } from "../Currency.ts"
import { RatesStore } from "../ports/RatesStore.ts"
import {
  nextQuarter,
  publicationOfQuarter,
  missingCurrencies,
  publisherNames,
  quarterFigures,
  quarterFirstDay,
  quarterOf,
  type RatePublication,
  type RatePublisher,
  RatesRefused,
  type RatesUnavailable,
  type StoredRate
} from "../ReferenceRates.ts"
import { dayOf } from "../Time.ts"

/** What the publishers gave for a quarter: their publications, and per publisher the URL or file they came from. */
export interface RatesFetch {
  readonly publications: ReadonlyArray<RatePublication>
  readonly origins: Partial<Record<RatePublisher, string>>
  /** Why a publisher gave nothing (the others' figures are still imported). */
  readonly failures?: ReadonlyArray<string> | undefined
}

/** The publishers' feeds: fetches what each published for a quarter (its first business day and the days after). */
export interface RatesFeed {
  readonly fetchQuarter: (quarter: string) => Effect.Effect<RatesFetch, RatesUnavailable | RatesRefused>
}

/** What an import saved, the spec's currencies it has no figure for, and the publishers that failed. */
export interface RatesImport {
  readonly quarter: string
  readonly figures: ReadonlyArray<StoredRate>
  readonly missing: ReadonlyArray<BudgetCurrency>
  readonly failures: ReadonlyArray<string>
}

/**
 * Saves a quarter's rates from the publications given: per publisher the publication of the quarter's first
 * business day (`publicationOfQuarter`); a publisher none of whose publications falls in the quarter is refused.
 */
export const importRates = Effect.fn("importRates")(function* (quarter: string, fetched: RatesFetch) {
  const publishers = [...new Set(fetched.publications.map((p) => p.publisher))]
  const chosen: Array<RatePublication> = []
  for (const publisher of publishers) {
    const found = publicationOfQuarter(
      fetched.publications.filter((p) => p.publisher === publisher),
      quarter
    )
    if (Option.isNone(found)) {
      return yield* new RatesRefused({
        message: `${publisherNames[publisher]}: no publication on or after ${quarterFirstDay(quarter)} in ${quarter}`
      })
    }
    chosen.push(found.value)
  }
  const fetchedAt = DateTime.formatIso(yield* DateTime.now)
  const figures = quarterFigures(quarter, chosen, fetched.origins, fetchedAt)
  yield* (yield* RatesStore).save(figures)
  const result: RatesImport = {
    quarter,
    figures,
    missing: missingCurrencies(figures),
    failures: fetched.failures ?? []
  }
  return result
})

/** The quarter of an instant. */
export const quarterAt = (now: DateTime.Utc): string => quarterOf(dayOf(now))

/** How long a replica holds the refresh's slot, and how soon a failed refresh is tried again. */
export const ratesRefreshLease = Duration.minutes(30)
export const ratesRefreshRetry = Duration.hours(1)

/** The outcome of a refresh that ran: what it saved, or why it failed. */
export type RatesRefreshOutcome =
  | { readonly _tag: "Imported"; readonly result: RatesImport }
  | { readonly _tag: "Current"; readonly quarter: string }
  | { readonly _tag: "Failed"; readonly message: string }

const startOf = (quarter: string) => DateTime.makeUnsafe(`${quarterFirstDay(quarter)}T00:00:00Z`)

/**
 * The quarterly refresh, once across the fleet: the replica that claims the due slot imports the current quarter
 * from the publishers unless every currency of it is already stored, then sets the slot due at the next quarter's
 * start, or in `ratesRefreshRetry` after a failure or a missing currency. Null when the slot was not due or taken.
 */
export const refreshRatesIfDue = Effect.fn("refreshRatesIfDue")(function* (feed: RatesFeed, owner: string) {
  const store = yield* RatesStore
  const now = yield* DateTime.now
  if (!(yield* store.claimRefresh(owner, { until: DateTime.addDuration(now, ratesRefreshLease) }))) return null
  const quarter = quarterAt(now)
  const held = (yield* store.latest).filter((f) => f.quarter === quarter)
  const outcome: RatesRefreshOutcome =
    held.length === BudgetCurrency.literals.length
      ? { _tag: "Current", quarter }
      : yield* feed.fetchQuarter(quarter).pipe(
          Effect.flatMap((fetched) => importRates(quarter, fetched)),
          Effect.map((result): RatesRefreshOutcome => ({ _tag: "Imported", result })),
          Effect.catch((e) => Effect.succeed<RatesRefreshOutcome>({ _tag: "Failed", message: e.message }))
        )
  const complete =
    outcome._tag === "Current" ||
    (outcome._tag === "Imported" && outcome.result.missing.length === 0 && outcome.result.failures.length === 0)
  const after = yield* DateTime.now
  const next = complete ? startOf(nextQuarter(quarter)) : DateTime.addDuration(after, ratesRefreshRetry)
  yield* store.releaseRefresh(owner, next)
  return outcome
})
