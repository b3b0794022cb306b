import { Context, type DateTime, type Effect } from "effect"
import type { AlertReason } from "../Alert.ts"
import type { Filters } from "../Filters.ts"
import type { StoredTender } from "../Tender.ts"
import type { MatchToken, TenderFacts } from "../WatchlistMatch.ts"

/** A watchlist as the evaluator reads it. */
export interface WatchlistForMatching {
  readonly id: string
  readonly accountId: string
  readonly name: string
  readonly createdAt: string
  readonly filters: Filters
  readonly tokens: ReadonlyArray<MatchToken>
}

/** A change event of a tender (written with the tender by ingestion). */
export interface TenderEvent {
  readonly id: number
  readonly tenderId: string
  readonly change: string
  readonly createdAt: string
}

/** An alert to create; (watchlist, tender, reason, version) is unique. */
export interface NewAlert {
  readonly watchlistId: string
  readonly accountId: string
  readonly tenderId: string
  readonly reason: AlertReason
  readonly version: string
}

/** An open alert with its watchlist and tender, for `GET /v1/alerts`. */
export interface OpenAlert {
  readonly watchlistId: string
  readonly watchlistName: string
  readonly reason: AlertReason
  readonly createdAt: string
  readonly tender: StoredTender
}

/** Alerts and what evaluating them reads. */
export class AlertStore extends Context.Service<
  AlertStore,
  {
    readonly watchlists: Effect.Effect<ReadonlyArray<WatchlistForMatching>>
    /** Changes whenever a watchlist is added, removed or changed in what it matches (a cache key for `watchlists`). */
    readonly watchlistsVersion: Effect.Effect<string>
    /** The id of the last tender event evaluated. */
    readonly cursor: Effect.Effect<number>
    readonly eventsAfter: (eventId: number, limit: number) => Effect.Effect<ReadonlyArray<TenderEvent>>
    readonly facts: (tenderIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TenderFacts>>
    /** Open tenders whose deadline falls in (now, until]. */
    readonly expiring: (now: DateTime.Utc, until: DateTime.Utc) => Effect.Effect<ReadonlyArray<TenderFacts>>
    /** Inserts alerts (duplicates ignored) and moves the cursor, atomically; returns how many were new. */
    readonly insert: (alerts: ReadonlyArray<NewAlert>, cursor: number | null) => Effect.Effect<number>
    /** The account's alerts on open tenders: nearest deadline first (none last), then newest, at most `limit`. */
    readonly open: (accountId: string, now: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<OpenAlert>>
  }
>()("@tenders/core/AlertStore") {}
