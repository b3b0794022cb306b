/**
 * Search by relevance on PostgreSQL (core TextQuery `relevance`), exact where it can be and over a candidate window
 * where not, with a cost that stays bounded however many tenders match:
 * 0. a text the statistics say few tenders have (or too rare for them to list): every match ranked in one statement
 *    (RankedFew.ts), when they are few indeed;
 * 1. the tenders of the highest relevance there is (every clause's best alternatives in the title), by deadline,
 *    when they fill the page;
 * 2. for a one-clause query, the next levels of relevance in turn, each by deadline, until the page is full;
 * 3. else every tender with any clause, ranked, when fewer than `candidateWindow` have one;
 * 4. else, in each tier (every clause in the title, every clause anywhere, every clause but one when there are
 *    three to `dropOneClauses`, any clause, the rarest clause by the statistics), the `candidateWindow` open tenders
 *    with the nearest deadlines, ranked together: a tender that lacks one word of a long query, or has only its
 *    rarest, is among the candidates however many tenders have only one common word.
 * The candidates are ranked as core's `rankOrder` says: those matching the whole query first, then by relevance, each
 * clause weighed by its rarity among the tenders (core `weighClauses`, from the statistics: SearchEstimate.ts).
 * Ties: nearest deadline, then id.
 *
 * Each step needs the open tenders of a text condition with the nearest deadlines (NearestTenders.ts), found the
 * way the statistics say is cheapest (SearchCost.ts).
 */
import type { SearchQuery } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"
import { loadLexemeSample } from "./LexemeSample.ts"
import { makeNearestTenders } from "./NearestTenders.ts"
import { makeRankedFew, type StatisticsRead } from "./RankedFew.ts"
import { BitmapClient, makeScanSettings, type ScanSettings } from "./ScanSettings.ts"
import { candidateWindow, routeOf } from "./SearchCost.ts"
import { estimateOf, estimateOfAny, filteredShares, rarestClause, type Shares, weighedPlan } from "./SearchEstimate.ts"
import {
  allButOne,
  bestLexemes,
  clauseLexemes,
  hasAnyLexeme,
  levelLexemes,
  rankedColumns,
  rankOrderSql,
  searchConditions
} from "./SearchSql.ts"
import { loadSearchStatistics, type SearchStatistics } from "./SearchStatistics.ts"
import { decodeTenderRowsWith, type Tender } from "./TenderRow.ts"

/** The most clauses a query may have for its tenders lacking one clause to be a tier (the tsquery grows as n²). */
const dropOneClauses = 6

const decodeRanked = decodeTenderRowsWith({ complete: Schema.Boolean })

export const makeRankedSearch = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const bitmap = yield* Effect.serviceOption(BitmapClient)

  // Statistics change when ANALYZE runs (after a large ingest, or by autovacuum): read again after a minute. How
  // often words meet changes slowly: its sample is read again after ten minutes (LexemeSample.ts).
  const [statistics, statisticsRead] = yield* Effect.cachedInvalidateWithTTL(loadSearchStatistics(sql), "1 minute")
  const [sample, sampleRead] = yield* Effect.cachedInvalidateWithTTL(loadLexemeSample(sql), "10 minutes")
  const statisticsChanged = Effect.andThen(statisticsRead, sampleRead)

  const { page, probe, nearest } = makeNearestTenders(sql)
  const rankedFew = makeRankedFew(sql, bitmap)

  /**
   * The first `limit` tenders of the levels of a one-clause query after the first (`found` holds its tenders, all of
   * them when fewer than `limit`). A level is read only when those before it had fewer than asked for, so all of
   * theirs are found: those of its own found already belong to a level before it. The levels estimated small are
   * probed at once, up to the first large one expected to fill the page.
   */
  const byLevel = Effect.fn("RankedSearch.byLevel")(function* (
    planner: ScanSettings,
    { stats, sampled }: StatisticsRead,
    query: SearchQuery,
    levels: ReadonlyArray<ReadonlyArray<string>>,
    found: ReadonlyArray<Tender>
  ) {
    const steps = levels.map((lexemes) => {
      const estimate = estimateOf(stats, sampled, [lexemes])
      const shares = filteredShares(query, stats, sampled, [lexemes])
      return {
        where: searchConditions(sql, query, [hasAnyLexeme(sql, lexemes)]),
        estimate,
        shares,
        route: routeOf(estimate, shares.kept, query.limit, stats.tenders)
      }
    })
    // A level is read only when those before it fell short: the small ones are probed at once (one statement) up to
    // the first large level expected to fill the page (its fewest likely matches, filtered), the rest only if reached.
    const filling = steps.findIndex(
      (step) => !step.route.indexFirst && step.estimate.least * step.shares.kept >= query.limit - found.length
    )
    const small = (filling === -1 ? steps : steps.slice(0, filling + 1)).filter((step) => step.route.indexFirst)
    const probed = new Map(
      (yield* probe(
        planner,
        small.map((step) => step.where),
        query.limit,
        Math.max(0, ...small.map((step) => step.route.probeCap))
      )).map((tenders, i) => [small[i], tenders] as const)
    )
    const result = [...found]
    for (const step of steps) {
      if (result.length >= query.limit) break
      const tenders =
        probed.get(step) ?? (yield* nearest(planner, stats, query, step.where, step.estimate, step.shares, query.limit))
      const seen = new Set(result.map((tender) => tender.id))
      result.push(...tenders.filter((tender) => !seen.has(tender.id)).slice(0, query.limit - result.length))
    }
    return result
  })

  const ranked = (query: SearchQuery, stats: SearchStatistics, ids: ReadonlyArray<string>) =>
    sql`SELECT ${rankedColumns(sql, query.text)}
      FROM tenders t WHERE t.id IN ${sql.in(ids)}
      ORDER BY ${rankOrderSql(sql, query.text, weighedPlan(query, stats))}
      LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRanked))

  const rankedSearch = Effect.fnUntraced(function* (query: SearchQuery, planner: ScanSettings, read: StatisticsRead) {
    const { stats, sampled } = read
    // A condition's shares are asked for more than once (the words' union: whether to probe it whole, its window, the
    // tenders lacking one clause): counted in the sample once a search.
    const shares = new Map<string, Shares>()
    const shareOf = (sets: ReadonlyArray<ReadonlyArray<string>>) => {
      const key = JSON.stringify(sets)
      let known = shares.get(key)
      if (known === undefined) {
        known = filteredShares(query, stats, sampled, sets)
        shares.set(key, known)
      }
      return known
    }
    const clauses = clauseLexemes(query.text)
    const best = bestLexemes(query.text)
    // One condition per set, each a key of its own for the GIN index, which then skips through each set's entries
    // to the others' (one tsquery of them all: a span of "road repair" read 7.8 ms of entries against 6.1-6.4).
    const whereAll = (sets: ReadonlyArray<ReadonlyArray<string>>) =>
      searchConditions(
        sql,
        query,
        sets.map((set) => hasAnyLexeme(sql, set))
      )
    const estimateAll = (sets: ReadonlyArray<ReadonlyArray<string>>) => estimateOf(stats, sampled, sets)
    const top = yield* nearest(planner, stats, query, whereAll(best), estimateAll(best), shareOf(best), query.limit)
    if (top.length === query.limit) return { tenders: top, approximate: false }
    const [clause, ...others] = query.text.clauses
    if (clause !== undefined && others.length === 0) {
      const tenders = yield* byLevel(planner, read, query, levelLexemes(clause).slice(1), top)
      return { tenders, approximate: false }
    }
    const any = [clauses.flat()]
    const inTitle = clauseLexemes(query.text, ["title"])
    const rarest = clauses.length < 2 ? undefined : rarestClause(clauses, stats)
    const complete =
      stats.matchesOfAny(any[0] ?? []) * shareOf(any).kept <= candidateWindow
        ? (yield* probe(planner, [whereAll(any)], candidateWindow, candidateWindow))[0]
        : undefined
    const window = (sets: ReadonlyArray<ReadonlyArray<string>>) =>
      nearest(planner, stats, query, whereAll(sets), estimateAll(sets), shareOf(sets), candidateWindow)
    const candidates = complete ?? [
      ...(yield* window(inTitle)),
      ...(yield* window(clauses)),
      ...(clauses.length >= 3 && clauses.length <= dropOneClauses
        ? yield* nearest(
            planner,
            stats,
            query,
            searchConditions(sql, query, [sql`t.search_vec @@ ${allButOne(sql, clauses)}`]),
            estimateOfAny(clauses.map((_, i) => estimateAll(clauses.filter((_, j) => j !== i)))),
            shareOf(any),
            candidateWindow
          )
        : []),
      ...(yield* window(any)),
      // The rarest clause's own: a tender having only the query's most telling word is a candidate however many have
      // only its common ones.
      ...(rarest === undefined ? [] : yield* window([rarest]))
    ]
    if (candidates.length === 0) return { tenders: [], approximate: false }
    yield* planner.plannerChooses
    const rows = yield* ranked(query, stats, [...new Set(candidates.map((tender) => tender.id))])
    return {
      tenders: rows.map(({ complete: _complete, ...tender }) => tender),
      approximate: rows.some((row) => !row.complete)
    }
  })

  // Its bitmap statements on the bitmap pool when there is one (PostgreSQL), else in a transaction that sets them.
  const rankedSearchScoped = (query: SearchQuery, read: StatisticsRead) => {
    const { settings, scoped } = makeScanSettings(sql, bitmap)
    return scoped(rankedSearch(query, settings, read))
  }

  // The statistics and the sample are read once, before any statement of the search: on the embedded store, a
  // transaction holds the one session, and one that waited for their reading again on another connection (a request
  // outside any transaction started it when they expired) would wait for itself until its request was cut off.
  const searchText = (query: SearchQuery) =>
    Effect.flatMap(Effect.all({ stats: statistics, sampled: sample }), (read) =>
      Effect.flatMap(rankedFew(query, read), (few) =>
        few === undefined ? rankedSearchScoped(query, read) : Effect.succeed(few)
      )
    )

  /** Searches open tenders: with text best first (`approximate` when some lack a clause), else by deadline. */
  const search = (query: SearchQuery) =>
    query.text.clauses.length > 0
      ? searchText(query)
      : Effect.map(page(searchConditions(sql, query, []), query.limit), (tenders) => ({ tenders, approximate: false }))

  return { search, statisticsChanged, sample, statistics }
})
