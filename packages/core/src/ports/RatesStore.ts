import { Context, type DateTime, type Effect } from "effect"
import type { StoredRate } from "../ReferenceRates.ts"

/** The reference rates imported from the publishers, with provenance, and the fleet-wide lease of their refresh. */
export class RatesStore extends Context.Service<
  RatesStore,
  {
    /** Saves a quarter's figures, replacing that quarter's earlier figures of the same currencies. */
    readonly save: (figures: ReadonlyArray<StoredRate>) => Effect.Effect<void>
    /** Per currency its figure of the newest quarter that has one (empty when nothing was imported). */
    readonly latest: Effect.Effect<ReadonlyArray<StoredRate>>
    /** Takes the refresh's slot when it is due and nobody holds a live lease: true for exactly one caller. */
    readonly claimRefresh: (owner: string, lease: { readonly until: DateTime.Utc }) => Effect.Effect<boolean>
    /** Gives the slot back and sets when the refresh is due next. */
    readonly releaseRefresh: (owner: string, nextRunAt: DateTime.Utc) => Effect.Effect<void>
  }
>()("@tenders/core/RatesStore") {}
