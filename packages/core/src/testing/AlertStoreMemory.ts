import { Effect, Layer } from "effect"
import { AlertStore } from "../ports/AlertStore.ts"

/** An AlertStore with no watchlists, events or alerts (handler tests that do not evaluate alerts). */
export const AlertStoreEmpty = Layer.succeed(AlertStore, AlertStore.of({
  watchlists: Effect.succeed([]),
  watchlistsVersion: Effect.succeed("0"),
  cursor: Effect.succeed(0),
  eventsAfter: () => Effect.succeed([]),
  facts: () => Effect.succeed([]),
  expiring: () => Effect.succeed([]),
  insert: () => Effect.succeed(0),
  open: () => Effect.succeed([])
}))
