import { Schema } from "effect"
import { Filters, hasWord, usedStructuredFilters } from "./Filters.ts"
import { Text } from "./Text.ts"

/** Where a watchlist's alerts go (spec "Watchlist (creation input)".channels). */
export const Channels = Schema.Struct({
  email: Schema.optionalKey(Schema.Boolean),
  webhook: Schema.optionalKey(
    Text({ max: 2048 }).annotate({
      format: "uri",
      description: "HTTPS endpoint for signed JSON alerts"
    })
  )
}).annotate({ identifier: "Channels" })
export type Channels = typeof Channels.Type

/** The body of `POST /v1/watchlists`. */
export const WatchlistInput = Schema.Struct({
  name: Text({ min: 1, max: 100 }),
  filters: Filters,
  channels: Schema.optionalKey(Channels)
}).annotate({ identifier: "WatchlistInput" })
export type WatchlistInput = typeof WatchlistInput.Type

/** The answer of `POST /v1/watchlists` (201). */
export const WatchlistCreated = Schema.Struct({
  watchlistId: Schema.String.check(Schema.isUUID()),
  estimatedMatches: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 9007199254740991 })),
  hint: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "WatchlistCreated" })
export type WatchlistCreated = typeof WatchlistCreated.Type

/** A filter set that narrows nothing: no word in `q` and no structured filter (DESIGN §4). */
export const matchesEverything = (filters: Filters): boolean =>
  !hasWord(filters.q) && usedStructuredFilters(filters).length === 0
