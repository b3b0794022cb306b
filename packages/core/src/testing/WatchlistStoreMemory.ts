import { DateTime, Effect, Layer } from "effect"
import { WatchlistId } from "../Ids.ts"
import { WatchlistStore } from "../ports/WatchlistStore.ts"
import { MemoryDb, nextSeq } from "./MemoryDb.ts"
import { memoryUuid } from "./memoryText.ts"

/** WatchlistStore over the shared in-memory state; the plan's limit is checked and the watchlist saved at once. */
export const WatchlistStoreOnMemory = Layer.effect(
  WatchlistStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return WatchlistStore.of({
      create: (accountId, input, limit) =>
        Effect.map(DateTime.now, (createdAt) => {
          if (db.watchlists.filter((w) => w.stored.accountId === accountId).length >= limit) return undefined
          const id = WatchlistId.make(memoryUuid(nextSeq(db)))
          db.watchlists.push({ stored: { ...input, id, accountId, createdAt }, webhookDisabled: false })
          db.watchlistsVersion++
          return id
        }),
      list: (accountId) =>
        Effect.sync(() => db.watchlists.filter((w) => w.stored.accountId === accountId).map((w) => w.stored)),
      remove: (accountId, watchlistId) =>
        Effect.sync(() => {
          const index = db.watchlists.findIndex((w) => w.stored.accountId === accountId && w.stored.id === watchlistId)
          if (index === -1) return false
          db.watchlists.splice(index, 1)
          db.watchlistsVersion++
          return true
        })
    })
  })
)

/** A WatchlistStore kept in memory, on its own state. */
export const WatchlistStoreMemory = WatchlistStoreOnMemory.pipe(Layer.provide(MemoryDb.layer))
