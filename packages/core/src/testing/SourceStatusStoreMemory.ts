import { Effect, Layer, Ref } from "effect"
import type { SourceRunSummary } from "../Health.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"

/** A SourceStatusStore over a Ref that tests can set. */
export const sourceStatusStoreMemory = (ref: Ref.Ref<ReadonlyArray<SourceRunSummary>>) =>
  Layer.succeed(SourceStatusStore, SourceStatusStore.of({ summaries: Ref.get(ref) }))

/** A SourceStatusStore with no run history: every source is `never`. */
export const SourceStatusStoreEmpty = Layer.succeed(
  SourceStatusStore,
  SourceStatusStore.of({ summaries: Effect.succeed([]) })
)
