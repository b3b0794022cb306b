import { DateTime, Effect } from "effect"
import { healthReport } from "../Health.ts"
import { SourceIntervals } from "../ports/SourceIntervals.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"

/** The health report from the run history, as of now. */
export const sourceHealth = Effect.gen(function* () {
  const store = yield* SourceStatusStore
  const runs = yield* store.summaries
  const intervals = yield* SourceIntervals
  return healthReport(runs, intervals, yield* DateTime.now)
}).pipe(Effect.withSpan("sourceHealth"))
