import { DateTime, Effect, Layer } from "effect"
import type { CreatedAlert } from "../Delivery.ts"
import { AlertId } from "../Ids.ts"
import { isOpen } from "../Open.ts"
import { newWebhookSecret } from "../Secrets.ts"
import { AlertStore, type DeliveryPlanner, type OpenAlert } from "../ports/AlertStore.ts"
import { MemoryDb, type MemoryState, nextSeq } from "./MemoryDb.ts"
import { SearchText } from "../TextQuery.ts"
import { factsWith } from "./memoryText.ts"

const deadlineOf = (alert: OpenAlert) => alert.tender.deadline ?? "9999"

/** Queues what core planned, as the SQL store does in the alerts' transaction (secrets created once). */
const enqueue = (db: MemoryState, created: ReadonlyArray<CreatedAlert>, plan: DeliveryPlanner, now: DateTime.Utc) => {
  for (const delivery of plan(created)) {
    const account = db.accounts.get(delivery.accountId)
    const common = {
      id: nextSeq(db),
      accountId: delivery.accountId,
      watchlistId: delivery.watchlistId,
      status: "pending" as const,
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      lastError: null,
      createdAt: now
    }
    if (delivery.channel === "email") {
      db.deliveries.push({
        ...common,
        target: delivery.digest.to,
        payload: { channel: "email", digest: delivery.digest }
      })
    } else {
      if (account !== undefined && account.webhookSecret === null) account.webhookSecret = newWebhookSecret()
      db.deliveries.push({
        ...common,
        target: delivery.url,
        payload: { channel: "webhook", webhookId: delivery.webhookId, body: delivery.body }
      })
    }
  }
}

/** AlertStore over the shared in-memory state: alerts unique on (watchlist, tender, reason, version), a cursor. */
export const AlertStoreOnMemory = Layer.effect(
  AlertStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const memoryFacts = factsWith((yield* SearchText).documentTerms)
    return AlertStore.of({
      watchlists: Effect.sync(() =>
        db.watchlists.map(({ stored }) => ({
          id: stored.id,
          accountId: stored.accountId,
          createdAt: stored.createdAt,
          filters: stored.filters
        }))
      ),
      watchlistsVersion: Effect.sync(() => String(db.watchlistsVersion)),
      cursor: Effect.sync(() => db.alertCursor),
      eventsAfter: (eventId, limit) => Effect.sync(() => db.events.filter((e) => e.id > eventId).slice(0, limit)),
      facts: (ids) =>
        Effect.sync(() =>
          ids.flatMap((id) => {
            const record = db.tenders.get(id)
            return record === undefined ? [] : [memoryFacts(record)]
          })
        ),
      expiring: (now, until) =>
        Effect.sync(() =>
          [...db.tenders.values()]
            .filter((record) => isOpen(record, now) && record.deadline !== null)
            .filter((record) => DateTime.isLessThanOrEqualTo(DateTime.makeUnsafe(record.deadline ?? ""), until))
            .map(memoryFacts)
        ),
      insert: (alerts, cursor, plan) =>
        Effect.map(DateTime.now, (now) => {
          const created: Array<CreatedAlert> = []
          for (const alert of alerts) {
            const watchlist = db.watchlists.find((w) => w.stored.id === alert.watchlistId)
            const tender = db.tenders.get(alert.tenderId)
            const account = db.accounts.get(alert.accountId)?.account
            const duplicate = db.alerts.some(
              (a) =>
                a.watchlistId === alert.watchlistId &&
                a.tenderId === alert.tenderId &&
                a.reason === alert.reason &&
                a.version === alert.version
            )
            if (watchlist === undefined || tender === undefined || duplicate) continue
            const id = AlertId.make(String(nextSeq(db)))
            db.alerts.push({ ...alert, id, createdAt: now })
            const webhook = watchlist.stored.channels?.webhook
            created.push({
              id,
              reason: alert.reason,
              createdAt: now,
              tender,
              recipient: {
                watchlistId: watchlist.stored.id,
                watchlistName: watchlist.stored.name,
                accountId: alert.accountId,
                accountEmail: account?.email ?? "",
                email: watchlist.stored.channels?.email ?? true,
                webhook: webhook === undefined || watchlist.webhookDisabled ? null : webhook
              }
            })
          }
          enqueue(db, created, plan, now)
          if (cursor !== null) db.alertCursor = Math.max(db.alertCursor, cursor)
          return created.length
        }),
      open: (accountId, now, limit) =>
        Effect.sync(() =>
          db.alerts
            .filter((a) => a.accountId === accountId)
            .flatMap((a): ReadonlyArray<OpenAlert & { readonly id: number }> => {
              const tender = db.tenders.get(a.tenderId)
              const watchlist = db.watchlists.find((w) => w.stored.id === a.watchlistId)
              if (tender === undefined || watchlist === undefined || !isOpen(tender, now)) return []
              const { id, reason, createdAt } = a
              return [
                {
                  id: Number(id),
                  watchlistId: a.watchlistId,
                  watchlistName: watchlist.stored.name,
                  reason,
                  createdAt,
                  tender
                }
              ]
            })
            .toSorted(
              (a, b) =>
                (deadlineOf(a) < deadlineOf(b) ? -1 : deadlineOf(a) > deadlineOf(b) ? 1 : 0) ||
                DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) ||
                b.id - a.id
            )
            .slice(0, limit)
            .map(({ id: _id, ...alert }) => alert)
        )
    })
  })
)

/** An AlertStore with no watchlists or events whose open alerts are `alerts`, for every account (handler tests). */
export const alertStoreWith = (alerts: ReadonlyArray<OpenAlert>) =>
  Layer.succeed(
    AlertStore,
    AlertStore.of({
      watchlists: Effect.succeed([]),
      watchlistsVersion: Effect.succeed("0"),
      cursor: Effect.succeed(0),
      eventsAfter: () => Effect.succeed([]),
      facts: () => Effect.succeed([]),
      expiring: () => Effect.succeed([]),
      insert: () => Effect.succeed(0),
      open: () => Effect.succeed(alerts)
    })
  )

/** An AlertStore with no watchlists, events or alerts (handler tests that do not evaluate alerts). */
export const AlertStoreEmpty = alertStoreWith([])
