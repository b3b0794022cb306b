import { DateTime, Effect, Layer } from "effect"
import { type ClaimedDelivery, DeliveryStore } from "../ports/DeliveryStore.ts"
import { MemoryDb, type MemoryDelivery } from "./MemoryDb.ts"

const claimed = (d: MemoryDelivery, secret: string | null): ReadonlyArray<ClaimedDelivery> =>
  d.payload.channel === "email"
    ? [{ id: d.id, channel: "email", attempts: d.attempts, digest: d.payload.digest }]
    : secret === null
      ? []
      : [
          {
            id: d.id,
            channel: "webhook",
            attempts: d.attempts,
            watchlistId: d.watchlistId,
            url: d.target,
            secret,
            webhookId: d.payload.webhookId,
            body: d.payload.body
          }
        ]

/** The outbox over the shared in-memory state; a claimed delivery is leased until `leaseUntil`. */
export const DeliveryStoreOnMemory = Layer.effect(
  DeliveryStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const find = (id: number) => db.deliveries.find((d) => d.id === id)
    return DeliveryStore.of({
      claimDue: (now, leaseUntil, limit) =>
        Effect.sync(() =>
          db.deliveries
            .filter(
              (d) =>
                d.status === "pending" &&
                DateTime.isLessThanOrEqualTo(d.nextAttemptAt, now) &&
                (d.leaseUntil === null || DateTime.isLessThan(d.leaseUntil, now))
            )
            .toSorted(
              (a, b) => DateTime.toEpochMillis(a.nextAttemptAt) - DateTime.toEpochMillis(b.nextAttemptAt) || a.id - b.id
            )
            .slice(0, limit)
            .flatMap((d) => {
              d.leaseUntil = leaseUntil
              return claimed(d, db.accounts.get(d.accountId)?.webhookSecret ?? null)
            })
        ),
      backlog: (now) =>
        Effect.sync(() => {
          const pending = db.deliveries.filter((d) => d.status === "pending")
          const due = pending
            .map((d) => d.nextAttemptAt)
            .filter((at) => DateTime.isLessThanOrEqualTo(at, now))
            .toSorted((a, b) => DateTime.toEpochMillis(a) - DateTime.toEpochMillis(b))
          return { depth: pending.length, oldestDueAt: due[0] ?? null }
        }),
      markDelivered: (id) =>
        Effect.sync(() => {
          const d = find(id)
          if (d === undefined) return
          d.status = "delivered"
          d.attempts++
          d.leaseUntil = null
          d.lastError = null
        }),
      reschedule: (id, next, error) =>
        Effect.sync(() => {
          const d = find(id)
          if (d === undefined) return
          d.attempts++
          d.nextAttemptAt = next
          d.leaseUntil = null
          d.lastError = error
        }),
      markFailed: (id, error, disableWebhookOf) =>
        Effect.sync(() => {
          const d = find(id)
          if (d !== undefined) {
            d.status = "failed"
            d.attempts++
            d.leaseUntil = null
            d.lastError = error
          }
          const watchlist = db.watchlists.find((w) => w.stored.id === disableWebhookOf)
          if (watchlist !== undefined) watchlist.webhookDisabled = true
        }),
      list: (limit, accountId) =>
        Effect.sync(() =>
          db.deliveries
            .filter((d) => accountId === undefined || d.accountId === accountId)
            .toReversed()
            .slice(0, limit)
            .map((d) => ({
              id: d.id,
              channel: d.payload.channel,
              target: d.target,
              status: d.status,
              attempts: d.attempts,
              nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
              lastError: d.lastError,
              createdAt: d.createdAt
            }))
        ),
      retry: (id, now, accountId) =>
        Effect.sync(() => {
          const d = find(id)
          if (d === undefined || d.status !== "failed") return false
          if (accountId !== undefined && d.accountId !== accountId) return false
          d.status = "pending"
          d.nextAttemptAt = now
          d.leaseUntil = null
          return true
        })
    })
  })
)
