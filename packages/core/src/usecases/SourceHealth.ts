import { DateTime, Effect } from "effect"
import { healthReport, type SourceRunSummary } from "../Health.ts"
import { SourceIntervals } from "../ports/SourceIntervals.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"
import { SearchCache } from "./SearchCache.ts"

type Summaries = Effect.Effect<ReadonlyArray<SourceRunSummary>>

/** The health report from the run history as `runsOf` gives the store's summaries, as of now. */
const healthWith = Effect.fnUntraced(function* (runsOf: (summaries: Summaries) => Summaries) {
  const runs = yield* runsOf((yield* SourceStatusStore).summaries)
  const intervals = yield* SourceIntervals
  return healthReport(runs, intervals, yield* DateTime.now)
})

/** The health report from the run history, as of now. */
export const sourceHealth = healthWith((summaries) => summaries).pipe(Effect.withSpan("sourceHealth"))

/**
 * The health report a search's `degradedSources` is made from: as of now, from the run summaries the result cache
 * kept for the store's current generation (`SearchCache.sourceRuns`; read each time without one).
 */
export const searchSourceHealth = Effect.gen(function* () {
  const cache = yield* SearchCache
  return yield* healthWith((summaries) => cache.sourceRuns(summaries))
}).pipe(Effect.withSpan("sourceHealth"))
