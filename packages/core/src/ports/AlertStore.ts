import { Context, type DateTime, type Effect } from "effect"
import type { AlertReason } from "../Alert.ts"
import type { CreatedAlert, PlannedDelivery } from "../Delivery.ts"
import type { TenderFacts } from "../FilterMatch.ts"
import type { Filters } from "../Filters.ts"
import type { AccountId, WatchlistId } from "../Ids.ts"
import type { TenderChange } from "../Lifecycle.ts"
import type { StoredTender, TenderId } from "../Tender.ts"

/** A watchlist as the evaluator reads it. */
export interface WatchlistForMatching {
  readonly id: WatchlistId
  readonly accountId: AccountId
  readonly createdAt: DateTime.Utc
  readonly filters: Filters
}

/** A change event of a tender, written in the transaction that changed it. */
export interface TenderEvent {
  readonly id: number
  readonly tenderId: TenderId
  readonly change: Exclude<TenderChange, "unchanged">
  readonly createdAt: DateTime.Utc
}

/** An alert to create; (watchlist, tender, reason, version) is unique. */
export interface NewAlert {
  readonly watchlistId: WatchlistId
  readonly accountId: AccountId
  readonly tenderId: TenderId
  readonly reason: AlertReason
  readonly version: string
}

/** Plans the deliveries of the alerts an insert created (core's `planDeliveries`), inside its transaction. */
export type DeliveryPlanner = (created: ReadonlyArray<CreatedAlert>) => ReadonlyArray<PlannedDelivery>

/** An open alert with its watchlist and tender, for `GET /v1/alerts`. */
export interface OpenAlert {
  readonly watchlistId: WatchlistId
  readonly watchlistName: string
  readonly reason: AlertReason
  readonly createdAt: DateTime.Utc
  readonly tender: StoredTender
}

/** Alerts, what evaluating them reads, and the outbox they fill. */
export class AlertStore extends Context.Service<
  AlertStore,
  {
    readonly watchlists: Effect.Effect<ReadonlyArray<WatchlistForMatching>>
    /** Changes whenever a watchlist is added, removed or changed in what it matches (a cache key for `watchlists`). */
    readonly watchlistsVersion: Effect.Effect<string>
    /** The id of the last tender event evaluated. */
    readonly cursor: Effect.Effect<number>
    readonly eventsAfter: (eventId: number, limit: number) => Effect.Effect<ReadonlyArray<TenderEvent>>
    readonly facts: (tenderIds: ReadonlyArray<TenderId>) => Effect.Effect<ReadonlyArray<TenderFacts>>
    /** Open tenders whose deadline falls in (now, until]. */
    readonly expiring: (now: DateTime.Utc, until: DateTime.Utc) => Effect.Effect<ReadonlyArray<TenderFacts>>
    /**
     * In one transaction: inserts the alerts (duplicates ignored, and alerts of watchlists deleted meanwhile), moves
     * the cursor, and queues the deliveries `plan` makes of the alerts actually created; returns how many were.
     */
    readonly insert: (
      alerts: ReadonlyArray<NewAlert>,
      cursor: number | null,
      plan: DeliveryPlanner
    ) => Effect.Effect<number>
    /** The account's alerts on open tenders: nearest deadline first (none last), then newest, at most `limit`. */
    readonly open: (accountId: AccountId, now: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<OpenAlert>>
  }
>()("@tenders/core/AlertStore") {}
