import { Effect, Layer } from "effect"
import { AlertStore, type OpenAlert } from "../ports/AlertStore.ts"

/** An AlertStore with no watchlists or events whose open alerts are `alerts`, for every account (handler tests). */
export const alertStoreWith = (alerts: ReadonlyArray<OpenAlert>) =>
  Layer.succeed(
    AlertStore,
    AlertStore.of({
      watchlists: Effect.succeed([]),
      watchlistsVersion: Effect.succeed("0"),
      cursor: Effect.succeed(0),
      eventsAfter: () => Effect.succeed([]),
      facts: () => Effect.succeed([]),
      expiring: () => Effect.succeed([]),
      insert: () => Effect.succeed(0),
      open: () => Effect.succeed(alerts)
    })
  )

/** An AlertStore with no watchlists, events or alerts (handler tests that do not evaluate alerts). */
export const AlertStoreEmpty = alertStoreWith([])
