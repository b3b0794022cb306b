import { Context, type DateTime, type Effect } from "effect"
import type { AccountId, WatchlistId } from "../Ids.ts"
import type { QueryToken } from "../TextQuery.ts"
import type { WatchlistInput } from "../Watchlist.ts"
import type { MatchToken } from "../FilterMatch.ts"

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
      tokens: ReadonlyArray<MatchToken>,
      limit: number
    ) => Effect.Effect<WatchlistId | undefined>
    /** The lexemes the text search matches each query word with (stop words drop out). */
    readonly resolveTokens: (tokens: ReadonlyArray<QueryToken>) => Effect.Effect<ReadonlyArray<MatchToken>>
    readonly list: (accountId: AccountId) => Effect.Effect<ReadonlyArray<StoredWatchlist>>
    /** Deletes one of the account's watchlists; false when it has no such watchlist. */
    readonly remove: (accountId: AccountId, watchlistId: WatchlistId) => Effect.Effect<boolean>
  }
>()("@tenders/core/WatchlistStore") {}
