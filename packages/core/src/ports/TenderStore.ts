import { Context, type Effect, type Option } from "effect"
import type { SearchQuery } from "../Search.ts"
import type { StoredTender, TenderId, TenderRecord } from "../Tender.ts"
import type { SpellingQuestion } from "../TextQuery.ts"

/** What one upsert batch did. */
export interface UpsertCounts {
  readonly new: number
  readonly updated: number
  readonly unchanged: number
}

/** What a search found; `approximate` when no tender had every word and similar spellings were used. */
export interface SearchResult {
  readonly tenders: ReadonlyArray<StoredTender>
  readonly approximate: boolean
}

/**
 * How alike (pg_trgm `similarity`, 0..1) a vocabulary word must be to be a candidate correction, and how many of the
 * most alike are looked at: the typo budget then decides (core `bestCorrection`).
 */
export const spellingCandidates = { minSimilarity: 0.2, count: 20 } as const

/** Tender storage and search. */
export class TenderStore extends Context.Service<
  TenderStore,
  {
    /** Inserts or updates records by id; the same record twice is one tender and counts as unchanged. */
    readonly upsert: (records: ReadonlyArray<TenderRecord>) => Effect.Effect<UpsertCounts>
    /**
     * Open tenders matching the query, best first, at most `query.limit`; when no tender has every word,
     * tenders whose title or buyer has similar words (trigram similarity), marked approximate.
     */
    readonly search: (query: SearchQuery) => Effect.Effect<SearchResult>
    /**
     * For each word none of whose forms the index holds, the indexed word most like it (trigram similarity, at
     * least `minSimilarity`); words the index knows, or with nothing similar, are absent.
     */
    readonly spellings: (words: ReadonlyArray<SpellingQuestion>) => Effect.Effect<ReadonlyMap<string, string>>
    /** Number of open tenders matching the query (no limit). */
    readonly count: (query: SearchQuery) => Effect.Effect<number>
    readonly get: (id: TenderId) => Effect.Effect<Option.Option<StoredTender>>
    /** Number of stored tenders of any status. */
    readonly size: Effect.Effect<number>
    /** Closes open and amended tenders whose deadline has passed, with a `closed` event each; returns how many. */
    readonly closeExpired: Effect.Effect<number>
    /**
     * After a large ingestion run: refreshes the planner's statistics, merges pending index entries and marks the new
     * rows visible to all (PostgreSQL's VACUUM ANALYZE).
     */
    readonly refreshStatistics: Effect.Effect<void>
  }
>()("@tenders/core/TenderStore") {}
