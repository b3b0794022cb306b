import { Effect } from "effect"
import type { AccountId } from "../Ids.ts"
import { type StoredWatchlist, WatchlistStore } from "../ports/WatchlistStore.ts"
import { estimateMatches } from "./CreateWatchlist.ts"

/** A stored watchlist with the open tenders its filters match now. */
export interface WatchlistWithMatches extends StoredWatchlist {
  readonly estimatedMatches: number
}

/** The account's watchlists, oldest first, each with `estimatedMatches` counted as its creation counts it. */
export const listWatchlists = Effect.fn("listWatchlists")(function* (accountId: AccountId) {
  const stored = yield* (yield* WatchlistStore).list(accountId)
  return yield* Effect.forEach(
    stored,
    (watchlist) =>
      Effect.map(estimateMatches(watchlist.filters), (estimatedMatches): WatchlistWithMatches => ({
        ...watchlist,
        estimatedMatches
      })),
    { concurrency: 4 }
  )
})
