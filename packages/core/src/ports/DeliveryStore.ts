import { Context, type DateTime, type Effect } from "effect"
import type { EmailDigest } from "../Delivery.ts"
import type { AccountId, WatchlistId } from "../Ids.ts"

/** A delivery claimed for one attempt. */
export type ClaimedDelivery =
  | { readonly id: number; readonly channel: "email"; readonly attempts: number; readonly digest: EmailDigest }
  | {
      readonly id: number
      readonly channel: "webhook"
      readonly attempts: number
      readonly watchlistId: WatchlistId
      readonly url: string
      readonly secret: string
      readonly webhookId: string
      readonly body: string
    }

/** One row of the outbox, for `tenders deliveries` and the dashboard. */
export interface DeliveryInfo {
  readonly id: number
  readonly channel: "email" | "webhook"
  readonly target: string
  readonly status: "pending" | "delivered" | "failed"
  readonly attempts: number
  readonly nextAttemptAt: DateTime.Utc | null
  readonly lastError: string | null
  readonly createdAt: DateTime.Utc
}

/** The outbox's backlog: pending deliveries, and the due time of the oldest that is due (null when none is). */
export interface OutboxBacklog {
  readonly depth: number
  readonly oldestDueAt: DateTime.Utc | null
}

/** The delivery outbox (filled in the alerts' transaction by `AlertStore.insert` with what core planned). */
export class DeliveryStore extends Context.Service<
  DeliveryStore,
  {
    /** Leases up to `limit` due deliveries until `leaseUntil`; a leased delivery is not handed to anyone else. */
    readonly claimDue: (
      now: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    readonly markDelivered: (id: number) => Effect.Effect<void>
    readonly reschedule: (id: number, nextAttemptAt: DateTime.Utc, error: string) => Effect.Effect<void>
    /** Gives up on a delivery; `disableWebhookOf` also switches that watchlist's webhook off (410 Gone). */
    readonly markFailed: (id: number, error: string, disableWebhookOf: WatchlistId | null) => Effect.Effect<void>
    /** The newest deliveries, at most `limit`: every account's (operators), or one account's (the dashboard). */
    readonly list: (limit: number, accountId?: AccountId) => Effect.Effect<ReadonlyArray<DeliveryInfo>>
    /**
     * Puts a failed delivery back in the queue now; false when there is no such failed delivery (or, with
     * `accountId`, it is another account's, which is left alone).
     */
    readonly retry: (id: number, now: DateTime.Utc, accountId?: AccountId) => Effect.Effect<boolean>
    /** The backlog as of `now` (one cheap query: the metrics read it at every scrape). */
    readonly backlog: (now: DateTime.Utc) => Effect.Effect<OutboxBacklog>
  }
>()("@tenders/core/DeliveryStore") {}
