import { Context, type DateTime, type Effect } from "effect"
import type { AccountId, WatchlistId } from "../Ids.ts"
import type { WatchlistInput } from "../Watchlist.ts"

/** A stored watchlist. */
export interface StoredWatchlist extends WatchlistInput {
  readonly id: WatchlistId
  readonly accountId: AccountId
  readonly createdAt: DateTime.Utc
}

/** Watchlists per account. */
export class WatchlistStore extends Context.Service<
  WatchlistStore,
  {
    /**
     * Saves a watchlist unless the account already has `limit` of them (checked and inserted atomically);
     * undefined when the limit is reached.
     */
    readonly create: (
      accountId: AccountId,
      input: WatchlistInput,
      limit: number
    ) => Effect.Effect<WatchlistId | undefined>
    readonly list: (accountId: AccountId) => Effect.Effect<ReadonlyArray<StoredWatchlist>>
    /** Deletes one of the account's watchlists; false when it has no such watchlist. */
    readonly remove: (accountId: AccountId, watchlistId: WatchlistId) => Effect.Effect<boolean>
  }
>()("@tenders/core/WatchlistStore") {}
