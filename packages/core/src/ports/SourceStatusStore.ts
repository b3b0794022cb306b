import { Context, type Effect } from "effect"
import type { SourceRunSummary } from "../Health.ts"

/** Run history of the source fetchers, summarised per source. */
export class SourceStatusStore extends Context.Service<
  SourceStatusStore,
  {
    readonly summaries: Effect.Effect<ReadonlyArray<SourceRunSummary>>
  }
>()("@tenders/core/SourceStatusStore") {}
