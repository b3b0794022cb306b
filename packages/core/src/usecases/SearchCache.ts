import { Cache, Clock, Context, Duration, Effect, Equal, Exit, Hash, Layer, Option } from "effect"
import type { SearchRequest } from "../Filters.ts"
import type { SourceRunSummary } from "../Health.ts"
import { countSearchCache } from "../Metrics.ts"
import { SearchChanges } from "../ports/SearchChanges.ts"
import { type AnswerPacking, type ExplainedSearch, packAnswer, unpackedAnswers } from "./SearchAnswer.ts"

/**
 * The longest an answer is kept. A write to what a search reads ends an answer at once (the store's generation
 * moves), what this process holds of the store keys it (`answer`'s `madeOf`), and what changes with time alone ends
 * it when it does (`ExplainedSearch.changesAt`); what is left is what no write announces: the planner's statistics,
 * which PostgreSQL's autovacuum samples again some time after writes and a search weighs words and ways by (re-read
 * each minute, their sample of words each ten). An answer follows them within this.
 */
export const searchCacheMaxAge = Duration.minutes(5)

/**
 * A search as the cache tells searches apart: the store's generation and the request, with the search to run. The
 * cache keeps a key for each answer it holds, the one of the answer's last lookup (Effect's Cache renews an entry's
 * place in its order with the key asked), so every key lets go of its search (and the request's context the search
 * was given: its HTTP request and response, its fiber's services) once its lookup is done: taken by the lookup that
 * runs it, dropped after any other. Before the second, every answer given again kept the last request that asked
 * for it, about 11 KB each (1,616 requests held 17.7 MB of heap after a load with 4,000 answers).
 */
class SearchKey implements Equal.Equal {
  readonly text: string
  /** When the answer was made, set by the lookup that ran it (the clock's epoch milliseconds). */
  madeAt = 0
  #run: Effect.Effect<ExplainedSearch> | undefined
  constructor(text: string, run: Effect.Effect<ExplainedSearch>) {
    this.text = text
    this.#run = run
  }
  /** The search to run, given once: the cache's lookup is its only caller, once for the key it keeps. */
  take(): Effect.Effect<ExplainedSearch> {
    const run = this.#run
    this.release()
    return run ?? Effect.die(new Error("SearchCache: a key's search was taken twice"))
  }
  /** Lets go of the search when the lookup did not take it (the answer was kept, or another lookup runs it). */
  release(): void {
    this.#run = undefined
  }
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof SearchKey && that.text === this.text
  }
  [Hash.symbol](): number {
    return Hash.string(this.text)
  }
}

/**
 * The request's fields in one order, its lists (countries, CPV codes: sets to the search) sorted without repeats: the
 * order a caller wrote them in does not make another search.
 */
const requestText = (request: SearchRequest): string =>
  JSON.stringify(
    Object.keys(request)
      .toSorted()
      .map((name) => {
        const value: unknown = request[name as keyof SearchRequest]
        return [name, Array.isArray(value) ? [...new Set(value)].toSorted() : value]
      })
  )

/**
 * How long an answer made at `madeAt` may be given again: until it could change with no write (its `changesAt`: a
 * result's deadline passing, a source turning `stalled`), and at most `searchCacheMaxAge`.
 */
const lifetime = (answer: ExplainedSearch, madeAt: number): Duration.Duration =>
  Duration.millis(Math.max(0, Math.min(Duration.toMillis(searchCacheMaxAge), answer.changesAt - madeAt)))

/** The search result cache as the search use case sees it. */
export interface SearchCacheShape {
  /**
   * The answer to `request`: the one kept for the store's current generation and `madeOf` (what else the answer is
   * made of, as the process holds it now), else `run`'s, kept.
   */
  readonly answer: <R>(
    request: SearchRequest,
    madeOf: string,
    run: Effect.Effect<ExplainedSearch, never, R>
  ) => Effect.Effect<ExplainedSearch, never, R>
  /**
   * The sources' run summaries a search's `degradedSources` is made from: those `read` gave at the store's current
   * generation (the runs change only by writes, which move it), else `read`'s, kept for it.
   */
  readonly sourceRuns: <R>(
    read: Effect.Effect<ReadonlyArray<SourceRunSummary>, never, R>
  ) => Effect.Effect<ReadonlyArray<SourceRunSummary>, never, R>
}

/** Every search runs: the default, and what a store without a change feed gets. */
const runEverySearch: SearchCacheShape = {
  answer: (_request, _madeOf, run) => Effect.tap(run, () => countSearchCache("off")),
  sourceRuns: (read) => read
}

/**
 * The search result cache: answers kept per request and store generation (`SearchChanges`), `capacity` of them, the
 * least recently used going first; concurrent identical searches run once. While the store cannot say its
 * generation, every search runs. The plan's rules and the quota are checked before it, so it changes no answer.
 */
export class SearchCache extends Context.Reference<SearchCacheShape>("@tenders/core/SearchCache", {
  defaultValue: () => runEverySearch
}) {
  /**
   * The cache over the store's change feed; `capacity` 0 keeps nothing (every search runs). Answers are kept packed
   * as `packing` says (compressed where the platform can: `serve` gzips them).
   */
  static readonly layer = (capacity: number, packing: AnswerPacking = unpackedAnswers) =>
    Layer.effect(
      SearchCache,
      Effect.gen(function* () {
        if (capacity <= 0) return runEverySearch
        const changes = yield* SearchChanges
        // The cache keeps each lookup's fiber, forked from the fiber asking, and a finished fiber keeps the span and
        // call frames it started with (the asking request's, its `Effect.fn`s' with their stacks). So the cache is
        // asked in the layer's own context, not merged with the request's; the search still runs in the request's
        // context (the key's search has it), its spans the request's children all the same.
        const own = yield* Effect.context<never>()
        const cache = yield* Cache.makeWith(
          (key: SearchKey) =>
            Effect.gen(function* () {
              yield* countSearchCache("miss")
              const answer = packAnswer(yield* key.take(), packing)
              key.madeAt = yield* Clock.currentTimeMillis
              return answer
            }),
          {
            capacity,
            timeToLive: (exit, key) => (Exit.isSuccess(exit) ? lifetime(exit.value, key.madeAt) : Duration.zero)
          }
        )
        const answer = <R>(request: SearchRequest, madeOf: string, run: Effect.Effect<ExplainedSearch, never, R>) =>
          Effect.gen(function* () {
            const generation = yield* changes.generation
            if (Option.isNone(generation)) return yield* runEverySearch.answer(request, madeOf, run)
            const context = yield* Effect.context<R>()
            const key = new SearchKey(
              `${generation.value}:${madeOf}:${requestText(request)}`,
              Effect.provideContext(run, context)
            )
            if (yield* Cache.has(cache, key)) yield* countSearchCache("hit")
            return yield* Cache.get(cache, key).pipe(
              Effect.updateContext<never, never>(() => own),
              Effect.ensuring(Effect.sync(() => key.release()))
            )
          })
        // Read after the generation, as a search's answer is: runs kept for a generation include every write it saw. A
        // read that ends after a later generation's was kept leaves that one.
        let runsKept: { readonly generation: number; readonly runs: ReadonlyArray<SourceRunSummary> } | undefined
        const keepRuns = (generation: number, runs: ReadonlyArray<SourceRunSummary>) =>
          Effect.sync(() => {
            if (runsKept === undefined || runsKept.generation < generation) runsKept = { generation, runs }
          })
        const sourceRuns = <R>(read: Effect.Effect<ReadonlyArray<SourceRunSummary>, never, R>) =>
          Effect.flatMap(changes.generation, (generation) => {
            if (Option.isNone(generation)) return read
            if (runsKept?.generation === generation.value) return Effect.succeed(runsKept.runs)
            return Effect.tap(read, (runs) => keepRuns(generation.value, runs))
          })
        return { answer, sourceRuns }
      })
    )
}
