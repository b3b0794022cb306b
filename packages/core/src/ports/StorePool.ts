import { Context, type Effect } from "effect"

/** The connections of this process to its store, by state. */
export interface PoolUsage {
  readonly inUse: number
  readonly idle: number
}

/** How this process uses its store's connections (the metrics read it at each scrape; a store may not know). */
export class StorePool extends Context.Service<
  StorePool,
  {
    /** The connections now, or undefined when the store cannot tell (another process holds them). */
    readonly usage: Effect.Effect<PoolUsage | undefined>
  }
>()("@tenders/core/StorePool") {}
