import { Effect } from "effect"
import { TenderStore, type UpsertCounts } from "../ports/TenderStore.ts"
import type { TenderRecord } from "../Tender.ts"

const batchSize = 500
const statisticsThreshold = 1_000

/** Upserts normalised records in batches, reporting progress after each batch. */
export const ingestRecords = Effect.fn("ingestRecords")(function* (
  records: ReadonlyArray<TenderRecord>,
  onProgress: (done: number) => Effect.Effect<void> = () => Effect.void
) {
  const store = yield* TenderStore
  let totals: UpsertCounts = { new: 0, updated: 0, unchanged: 0 }
  for (let i = 0; i < records.length; i += batchSize) {
    const counts = yield* store.upsert(records.slice(i, i + batchSize))
    totals = {
      new: totals.new + counts.new,
      updated: totals.updated + counts.updated,
      unchanged: totals.unchanged + counts.unchanged
    }
    yield* onProgress(Math.min(records.length, i + batchSize))
  }
  if (totals.new + totals.updated >= statisticsThreshold) yield* store.refreshStatistics
  return totals
})
