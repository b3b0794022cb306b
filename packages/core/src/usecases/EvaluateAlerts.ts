import { DateTime, Duration, Effect } from "effect"
import type { AlertsResponse } from "../Alert.ts"
import { AlertStore, type NewAlert, type WatchlistForMatching } from "../ports/AlertStore.ts"
import { Rates } from "../ports/Rates.ts"
import { toCard } from "../TenderView.ts"
import { indexWatchlists, prepareWatchlist, type TenderFacts } from "../WatchlistMatch.ts"

const batch = 2_000
const day = Duration.hours(24)

const millis = (iso: string) => DateTime.toEpochMillis(DateTime.makeUnsafe(iso))

const within24h = (facts: TenderFacts, now: DateTime.Utc) => {
  const deadline = facts.record.deadline
  if (deadline === null) return false
  const left = DateTime.toEpochMillis(DateTime.makeUnsafe(deadline)) - DateTime.toEpochMillis(now)
  return left > 0 && left <= Duration.toMillis(day)
}

/**
 * Turns new tender events into alerts, incrementally from the last evaluated event, plus `deadline-24h` for
 * matching tenders entering their last day: `new` when a tender first matches a watchlist created before the
 * change, `amended` once per amendment, `deadline-24h` once per tender and watchlist. Alerts are unique on
 * (watchlist, tender, reason, version), so replicas and retries evaluating the same events create each once.
 */
export const evaluateAlerts = Effect.fn("evaluateAlerts")(function*() {
  const store = yield* AlertStore
  const rates = yield* Rates
  const watchlists = yield* store.watchlists
  const byId = new Map<string, WatchlistForMatching>(watchlists.map((w) => [w.id, w]))
  const index = indexWatchlists(watchlists.map((w) => prepareWatchlist(w.id, w.filters, w.tokens, rates.table)))
  const now = yield* DateTime.now
  let created = 0
  let cursor = yield* store.cursor
  while (true) {
    const events = yield* store.eventsAfter(cursor, batch)
    const last = events.at(-1)
    if (last === undefined) break
    const facts = new Map<string, TenderFacts>((yield* store.facts([...new Set(events.map((e) => e.tenderId))])).map((f) => [f.record.id, f]))
    const alerts: Array<NewAlert> = []
    for (const event of events) {
      const tender = facts.get(event.tenderId)
      if (tender === undefined || event.change === "cancelled" || event.change === "closed") continue
      for (const match of index.matching(tender, now)) {
        const w = byId.get(match.id)
        if (w === undefined) continue
        const base = { watchlistId: w.id, accountId: w.accountId, tenderId: tender.record.id }
        if (event.change === "amended") alerts.push({ ...base, reason: "amended", version: String(event.id) })
        else if (millis(w.createdAt) <= millis(event.createdAt)) alerts.push({ ...base, reason: "new", version: "" })
        if (within24h(tender, now)) alerts.push({ ...base, reason: "deadline-24h", version: "" })
      }
    }
    created += yield* store.insert(alerts, last.id)
    cursor = last.id
    if (events.length < batch) break
  }
  const expiring = yield* store.expiring(now, DateTime.addDuration(now, day))
  const soon: Array<NewAlert> = []
  for (const tender of expiring) {
    for (const match of index.matching(tender, now)) {
      const w = byId.get(match.id)
      if (w !== undefined) soon.push({ watchlistId: w.id, accountId: w.accountId, tenderId: tender.record.id, reason: "deadline-24h", version: "" })
    }
  }
  created += yield* store.insert(soon, null)
  return created
})

/** The caller's open alerts (spec: GET /v1/alerts). */
export const listAlerts = Effect.fn("listAlerts")(function*(accountId: string) {
  const store = yield* AlertStore
  const open = yield* store.open(accountId, yield* DateTime.now, 50)
  const response: AlertsResponse = {
    alerts: open.map((a) => ({ watchlistId: a.watchlistId, watchlistName: a.watchlistName, reason: a.reason, createdAt: a.createdAt, tender: toCard(a.tender) })),
    ...(open.length === 0 ? { hint: "No open alerts. Alerts appear when a tender newly matches one of your watchlists, is amended, or enters its last 24 hours." } : {})
  }
  return response
})
