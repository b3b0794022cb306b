import { DateTime, Duration, Effect, Ref } from "effect"
import type { AlertsResponse } from "../Alert.ts"
import { planDeliveries, toAlert } from "../Delivery.ts"
import { indexFilters, type TenderFacts } from "../FilterMatch.ts"
import { toFilterQuery } from "../FilterQuery.ts"
import type { AccountId } from "../Ids.ts"
import { AlertStore, type NewAlert, type WatchlistForMatching } from "../ports/AlertStore.ts"
import { Rates } from "../ports/Rates.ts"
import { SearchText } from "../TextQuery.ts"

const batch = 2_000
const day = Duration.hours(24)

const within24h = (facts: TenderFacts, now: DateTime.Utc) => {
  const deadline = facts.record.deadline
  if (deadline === null) return false
  const left = DateTime.toEpochMillis(DateTime.makeUnsafe(deadline)) - DateTime.toEpochMillis(now)
  return left > 0 && left <= Duration.toMillis(day)
}

/** Every watchlist, indexed for matching, as of one version of the watchlists. */
interface PreparedWatchlists {
  readonly version: string
  readonly byId: ReadonlyMap<string, WatchlistForMatching>
  readonly index: ReturnType<typeof indexFilters>
}

/** The watchlists' index: `cached` when the watchlists did not change since it was built, else a fresh one. */
const prepareWatchlists = Effect.fn("prepareWatchlists")(function* (cached: PreparedWatchlists | undefined) {
  const store = yield* AlertStore
  // The version is read first: a watchlist saved in between makes the next run rebuild, never miss it.
  const version = yield* store.watchlistsVersion
  if (cached !== undefined && cached.version === version) return cached
  const rates = yield* (yield* Rates).current
  const text = yield* SearchText
  const watchlists = yield* store.watchlists
  const prepared: PreparedWatchlists = {
    version,
    byId: new Map(watchlists.map((w) => [w.id, w])),
    index: indexFilters(
      watchlists.map((w) => ({
        id: w.id,
        query: toFilterQuery(w.filters, rates, text.queryPlan(w.filters.q ?? ""))
      }))
    )
  }
  return prepared
})

/**
 * Turns new tender events into alerts, incrementally from the last evaluated event, plus `deadline-24h` for
 * matching tenders entering their last day: `new` when a tender first matches a watchlist created before the
 * change, `amended` once per amendment, `deadline-24h` once per tender and watchlist. Alerts are unique on
 * (watchlist, tender, reason, version), so replicas and retries evaluating the same events create each once; their
 * deliveries are planned here and queued in the alerts' transaction.
 * Reads and indexes every watchlist; a long-running process uses `makeAlertEvaluator`, which keeps the index.
 */
export const evaluateAlerts = Effect.fn("evaluateAlerts")(function* () {
  return yield* evaluateWith(yield* prepareWatchlists(undefined))
})

/**
 * An `evaluateAlerts` that keeps the watchlist index between runs and rebuilds it only when the watchlists
 * changed (a version counter the store bumps on every change), so a scheduler tick with 100,000 watchlists
 * does not read and index all of them again.
 */
export const makeAlertEvaluator = Effect.gen(function* () {
  const cache = yield* Ref.make<PreparedWatchlists | undefined>(undefined)
  return Effect.gen(function* () {
    const prepared = yield* prepareWatchlists(yield* Ref.get(cache))
    yield* Ref.set(cache, prepared)
    return yield* evaluateWith(prepared)
  }).pipe(Effect.withSpan("evaluateAlerts"))
})

const evaluateWith = Effect.fn("evaluateWith")(function* ({ byId, index }: PreparedWatchlists) {
  const store = yield* AlertStore
  const now = yield* DateTime.now
  const matches = (tender: TenderFacts) =>
    index.matching(tender, now).flatMap((match) => {
      const watchlist = byId.get(match.id)
      return watchlist === undefined ? [] : [watchlist]
    })
  const alertOf = (watchlist: WatchlistForMatching, tender: TenderFacts) => ({
    watchlistId: watchlist.id,
    accountId: watchlist.accountId,
    tenderId: tender.record.id
  })
  let created = 0
  let cursor = yield* store.cursor
  while (true) {
    const events = yield* store.eventsAfter(cursor, batch)
    const last = events.at(-1)
    if (last === undefined) break
    const tenderIds = [...new Set(events.map((e) => e.tenderId))]
    const facts = new Map((yield* store.facts(tenderIds)).map((f) => [f.record.id, f]))
    const alerts: Array<NewAlert> = []
    for (const event of events) {
      const tender = facts.get(event.tenderId)
      if (tender === undefined || event.change === "cancelled" || event.change === "closed") continue
      for (const watchlist of matches(tender)) {
        const base = alertOf(watchlist, tender)
        if (event.change === "amended") alerts.push({ ...base, reason: "amended", version: String(event.id) })
        else if (DateTime.isLessThanOrEqualTo(watchlist.createdAt, event.createdAt)) {
          alerts.push({ ...base, reason: "new", version: "" })
        }
        if (within24h(tender, now)) alerts.push({ ...base, reason: "deadline-24h", version: "" })
      }
    }
    created += yield* store.insert(alerts, last.id, planDeliveries)
    cursor = last.id
    if (events.length < batch) break
  }
  const expiring = yield* store.expiring(now, DateTime.addDuration(now, day))
  const soon: Array<NewAlert> = expiring.flatMap((tender) =>
    matches(tender).map((watchlist): NewAlert => ({
      ...alertOf(watchlist, tender),
      reason: "deadline-24h",
      version: ""
    }))
  )
  created += yield* store.insert(soon, null, planDeliveries)
  return created
})

const noAlertsHint =
  "No open alerts. Alerts appear when a tender newly matches one of your watchlists, is amended, or enters its " +
  "last 24 hours."

/** The caller's open alerts (spec: GET /v1/alerts). */
export const listAlerts = Effect.fn("listAlerts")(function* (accountId: AccountId) {
  const store = yield* AlertStore
  const open = yield* store.open(accountId, yield* DateTime.now, 50)
  const response: AlertsResponse = {
    alerts: open.map(toAlert),
    ...(open.length === 0 ? { hint: noAlertsHint } : {})
  }
  return response
})
