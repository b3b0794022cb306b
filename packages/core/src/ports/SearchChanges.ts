import { Context, type Effect, type Option } from "effect"

/**
 * What the store says about changes to what a search would find (its tenders, their words and spellings, the
 * sources' runs, the reference rates, the classification packs): a generation that moves once each such change is
 * committed, wherever it was made (another replica, a CLI command); none while the store cannot tell (it has no
 * change feed, or it lost it). A search answered from the result cache is one made at the current generation.
 */
export class SearchChanges extends Context.Service<
  SearchChanges,
  { readonly generation: Effect.Effect<Option.Option<number>> }
>()("@tenders/core/SearchChanges") {}
