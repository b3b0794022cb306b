import { Context, type DateTime, type Effect } from "effect"
import type { SourceCode } from "../Source.ts"

/** Run history, resume cursors and the fleet-wide schedule of the source fetchers. */
export class SourceRunStore extends Context.Service<
  SourceRunStore,
  {
    readonly startRun: (source: SourceCode, owner: string) => Effect.Effect<number>
    readonly finishRun: (
      runId: number,
      outcome: { readonly error: string | null; readonly summary: Record<string, number> }
    ) => Effect.Effect<void>
    readonly loadCursor: (source: SourceCode) => Effect.Effect<string | null>
    readonly saveCursor: (source: SourceCode, cursor: string) => Effect.Effect<void>
    /**
     * Takes the source's scheduled slot when it is due and nobody holds a live lease: true for exactly one
     * caller across every replica sharing the database.
     */
    readonly claim: (
      source: SourceCode,
      owner: string,
      lease: { readonly until: DateTime.Utc }
    ) => Effect.Effect<boolean>
    /** Extends the caller's lease while its run makes progress. */
    readonly renew: (source: SourceCode, owner: string, until: DateTime.Utc) => Effect.Effect<void>
    /** Gives the slot back and sets when the source is due next. */
    readonly release: (source: SourceCode, owner: string, nextRunAt: DateTime.Utc) => Effect.Effect<void>
    /** The last runs of a source, newest first (for `tenders sources`). */
    readonly recentRuns: (source: SourceCode, limit: number) => Effect.Effect<ReadonlyArray<SourceRun>>
  }
>()("@tenders/core/SourceRunStore") {}

/** One fetch run of a source. */
export interface SourceRun {
  readonly id: number
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly error: string | null
  readonly summary: Record<string, number>
}
