import { DateTime, Effect, Layer } from "effect"
import { RatesStore } from "../ports/RatesStore.ts"
import type { StoredRate } from "../ReferenceRates.ts"

/** The state behind one in-memory rates store (share the layer to share it between replicas). */
interface RatesState {
  readonly figures: Map<string, StoredRate>
  slot: { nextRunAt: DateTime.Utc | null; owner: string | null; leaseUntil: DateTime.Utc | null }
}

/** The reference rates and their refresh's lease in memory, as the SQL store keeps them. */
export const RatesStoreMemory = Layer.sync(RatesStore, () => {
  const state: RatesState = { figures: new Map(), slot: { nextRunAt: null, owner: null, leaseUntil: null } }
  return RatesStore.of({
    save: (figures) =>
      Effect.sync(() => {
        for (const f of figures) state.figures.set(`${f.quarter}/${f.currency}`, f)
      }),
    latest: Effect.sync(() => {
      const newest = new Map<string, StoredRate>()
      for (const f of state.figures.values()) {
        const held = newest.get(f.currency)
        if (held === undefined || f.quarter > held.quarter) newest.set(f.currency, f)
      }
      return [...newest.values()].toSorted((a, b) => (a.currency < b.currency ? -1 : 1))
    }),
    claimRefresh: (owner, lease) =>
      Effect.map(DateTime.now, (now) => {
        const slot = state.slot
        const due = slot.nextRunAt === null || DateTime.isLessThanOrEqualTo(slot.nextRunAt, now)
        const free = slot.owner === null || (slot.leaseUntil !== null && DateTime.isLessThan(slot.leaseUntil, now))
        if (!due || !free) return false
        state.slot = { nextRunAt: slot.nextRunAt ?? now, owner, leaseUntil: lease.until }
        return true
      }),
    releaseRefresh: (owner, nextRunAt) =>
      Effect.sync(() => {
        if (state.slot.owner === owner) state.slot = { nextRunAt, owner: null, leaseUntil: null }
      })
  })
})
