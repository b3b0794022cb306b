import { Context, type Effect } from "effect"
import type { WatchlistInput } from "../Watchlist.ts"

/** A stored watchlist. */
export interface StoredWatchlist extends WatchlistInput {
  readonly id: string
  readonly accountId: string
  readonly createdAt: string
}

/** Watchlists per account. */
export class WatchlistStore extends Context.Service<WatchlistStore, {
  /**
   * Saves a watchlist unless the account already has `limit` of them (checked and inserted atomically);
   * undefined when the limit is reached.
   */
  readonly create: (accountId: string, input: WatchlistInput, limit: number) => Effect.Effect<string | undefined>
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<StoredWatchlist>>
  /** Deletes one of the account's watchlists; false when it has no such watchlist. */
  readonly remove: (accountId: string, watchlistId: string) => Effect.Effect<boolean>
}>()("@tenders/core/WatchlistStore") {}
