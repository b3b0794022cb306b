import { DateTime, Effect } from "effect"
import { healthReport, type SourceRunSummary, statusChangesAt } from "../Health.ts"
import { SourceIntervals } from "../ports/SourceIntervals.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"
import { SearchCache } from "./SearchCache.ts"

/** The store's summary of the sources' run history. */
const summaries = Effect.gen(function* () {
  return yield* (yield* SourceStatusStore).summaries
})

/** The health report of the sources' runs, as of now. */
const reportOf = Effect.fnUntraced(function* (runs: ReadonlyArray<SourceRunSummary>) {
  const intervals = yield* SourceIntervals
  return healthReport(runs, intervals, yield* DateTime.now)
})

/** The health report from the run history, as of now. */
export const sourceHealth = Effect.flatMap(summaries, reportOf).pipe(Effect.withSpan("sourceHealth"))

/**
 * The health report a search's `degradedSources` is made from: as of now, from the run summaries the result cache
 * kept for the store's current generation (`SearchCache.sourceRuns`; read each time without one); with the first
 * instant it could change with no run written (`statusChangesAt`), which ends a kept answer.
 */
export const searchSourceHealth = Effect.gen(function* () {
  const runs = yield* (yield* SearchCache).sourceRuns(summaries)
  const intervals = yield* SourceIntervals
  const now = yield* DateTime.now
  return { report: healthReport(runs, intervals, now), changesAt: statusChangesAt(runs, intervals, now) }
}).pipe(Effect.withSpan("sourceHealth"))
