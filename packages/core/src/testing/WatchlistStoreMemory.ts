import { DateTime, Effect, Layer, Ref } from "effect"
import { type StoredWatchlist, WatchlistStore } from "../ports/WatchlistStore.ts"

/** A WatchlistStore kept in memory (ids are sequential UUID-shaped strings). */
export const WatchlistStoreMemory = Layer.effect(
  WatchlistStore,
  Effect.gen(function* () {
    const rows = yield* Ref.make<ReadonlyArray<StoredWatchlist>>([])
    const seq = yield* Ref.make(0)
    return WatchlistStore.of({
      resolveTokens: (tokens) =>
        Effect.succeed(
          tokens.map((t) => ({
            exact: [t.text],
            prefix: t.script === "armenian" || t.script === "other" ? [t.text] : []
          }))
        ),
      create: (accountId, input, _tokens, limit) =>
        Effect.gen(function* () {
          const createdAt = DateTime.formatIso(yield* DateTime.now)
          const n = yield* Ref.updateAndGet(seq, (x) => x + 1)
          const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`
          return yield* Ref.modify(rows, (all): readonly [string | undefined, ReadonlyArray<StoredWatchlist>] =>
            all.filter((w) => w.accountId === accountId).length >= limit
              ? [undefined, all]
              : [id, [...all, { ...input, id, accountId, createdAt }]]
          )
        }),
      list: (accountId) => Effect.map(Ref.get(rows), (all) => all.filter((w) => w.accountId === accountId)),
      remove: (accountId, watchlistId) =>
        Ref.modify(rows, (all) => {
          const kept = all.filter((w) => !(w.accountId === accountId && w.id === watchlistId))
          return [kept.length < all.length, kept]
        })
    })
  })
)
