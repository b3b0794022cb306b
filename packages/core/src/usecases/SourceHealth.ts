import { DateTime, Effect } from "effect"
import { healthReport, type SourceRunSummary, statusChangesAt } from "../Health.ts"
import { SourceIntervals } from "../ports/SourceIntervals.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"
import { SearchCache } from "./SearchCache.ts"

/** The store's summary of the sources' run history. */
const summaries = Effect.gen(function* () {
  return yield* (yield* SourceStatusStore).summaries
})

/**
 * The health report of the sources' runs as of now, with the first instant it could change with no run written
 * (`statusChangesAt`).
 */
const healthOf = Effect.fnUntraced(function* (runs: ReadonlyArray<SourceRunSummary>) {
  const intervals = yield* SourceIntervals
  const now = yield* DateTime.now
  return { report: healthReport(runs, intervals, now), changesAt: statusChangesAt(runs, intervals, now) }
})

/** The health report from the run history, as of now. */
export const sourceHealth = summaries.pipe(
  Effect.flatMap(healthOf),
  Effect.map((health) => health.report),
  Effect.withSpan("sourceHealth")
)

/**
 * The health a search's `degradedSources` is made from (`healthOf`): as of now, from the run summaries the result
 * cache kept for the store's current generation (`SearchCache.sourceRuns`; read each time without one); its
 * `changesAt` ends a kept answer.
 */
export const searchSourceHealth = Effect.gen(function* () {
  return yield* healthOf(yield* (yield* SearchCache).sourceRuns(summaries))
}).pipe(Effect.withSpan("sourceHealth"))
