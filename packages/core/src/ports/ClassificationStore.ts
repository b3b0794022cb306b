import { Context, type DateTime, type Effect } from "effect"
import type { ClassificationPack, PackCode, PackInfo } from "../Classifications.ts"

/** The classification packs, kept in the store so that every process and replica reads the same. */
export class ClassificationStore extends Context.Service<
  ClassificationStore,
  {
    /** What is loaded, one entry per pack imported (none before the first import). */
    readonly status: Effect.Effect<ReadonlyArray<PackInfo>>
    /** Every pack's codes. */
    readonly codes: (pack: ClassificationPack) => Effect.Effect<ReadonlyArray<PackCode>>
    /**
     * Replaces a pack's codes with these, atomically, as version + 1; nothing (undefined) when the pack already has
     * this digest.
     */
    readonly replace: (
      pack: ClassificationPack,
      codes: ReadonlyArray<PackCode>,
      digest: string,
      at: DateTime.Utc
    ) => Effect.Effect<PackInfo | undefined>
  }
>()("@tenders/core/ClassificationStore") {}
