/**
 * Search by relevance on PostgreSQL (core TextQuery `relevance`), exact where it can be and over a candidate window
 * where not, with a cost that stays bounded however many tenders match:
 * 0. a text the statistics say few tenders have (or too rare for them to list): every match ranked in one statement
 *    (`rankedFew`), when they are few indeed;
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
 * Each step needs the open tenders of a text condition with the nearest deadlines (`nearest`), found the way the
 * statistics say is cheapest (SearchCost.ts).
 */
import {
  deadlineOrder,
  type DocumentTerms,
  type Field,
  fieldLetter,
  hasEveryClause,
  matchesWhole,
  rankedFields,
  rankOrder,
  relevance,
  type SearchQuery
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Option, Schema } from "effect"
import type { Statement } from "effect/sql"
import {
  allButOne,
  allOf,
  bestLexemes,
  clauseLexemes,
  hasAnyLexeme,
  levelLexemes,
  relevanceSql,
  searchConditions,
  termOfLexeme,
  wholeCondition
} from "./SearchSql.ts"
import { loadLexemeSample } from "./LexemeSample.ts"
import {
  afterProbe,
  afterSpan,
  afterWindow,
  cheapestWay,
  maxSpans,
  routeOf,
  spanCap,
  spanOf,
  wayKey
} from "./SearchCost.ts"
import {
  type Estimate,
  estimateOf,
  estimateOfAny,
  filteredShares,
  rarestClause,
  type Shares,
  weighedPlan
} from "./SearchEstimate.ts"
import { loadSearchStatistics, type SearchStatistics } from "./SearchStatistics.ts"
import { BitmapClient, makeScanSettings, type ScanSettings } from "./ScanSettings.ts"
import { openTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

/** How many tenders of each candidate tier a search ranks (measured in docs/benchmarks.md). */
const candidateWindow = 100
/** The most clauses a query may have for its tenders lacking one clause to be a tier (the tsquery grows as n²). */
const dropOneClauses = 6

type Tender = typeof TenderRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))
const decodeLevels = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, level: Schema.Number, matches: Schema.Number }))
)
const decodeRanked = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean }))
)
const decodeFew = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean, matches: Schema.Number }))
)
const fieldOfLetter = new Map<string, Field>(rankedFields.map((field) => [fieldLetter[field], field]))
/**
 * A tender's terms from its stored lexemes (`fieldLexeme`: the field's letter, then the term), each in its best field.
 */
const documentTermsOf = (lexemes: ReadonlyArray<string>): DocumentTerms => {
  const terms = new Map<string, Field>()
  for (const lexeme of lexemes) {
    const field = fieldOfLetter.get(lexeme.slice(0, 1))
    const term = termOfLexeme(lexeme)
    const before = terms.get(term)
    if (field !== undefined && (before === undefined || rankedFields.indexOf(field) < rankedFields.indexOf(before)))
      terms.set(term, field)
  }
  return terms
}
export const makeRankedSearch = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const bitmap = yield* Effect.serviceOption(BitmapClient)

  // Statistics change when ANALYZE runs (after a large ingest, or by autovacuum): read again after a minute. How
  // often words meet changes slowly: its sample is read again after ten minutes (LexemeSample.ts).
  const [statistics, statisticsRead] = yield* Effect.cachedInvalidateWithTTL(loadSearchStatistics(sql), "1 minute")
  const [sample, sampleRead] = yield* Effect.cachedInvalidateWithTTL(loadLexemeSample(sql), "10 minutes")
  const statisticsChanged = Effect.andThen(statisticsRead, sampleRead)

  // Statements the planner plans run unprepared: a cached generic plan cannot see the words. Those that run with
  // the GIN index only are prepared: their plan is the same for every word.
  const page = (where: Statement.Fragment, limit: number) =>
    sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE ${where}
      ORDER BY t.deadline_sort, t.id LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))

  /**
   * For each condition, from the GIN index (other scans off): its `limit` nearest matches, and whether that is all
   * of them or `cap` were found (then `undefined`).
   */
  const probe = Effect.fn("RankedSearch.probe")(function* (
    planner: ScanSettings,
    conditions: ReadonlyArray<Statement.Fragment>,
    limit: number,
    cap: number
  ) {
    if (conditions.length === 0) return []
    yield* planner.free(false)
    const name = (i: number) => sql.literal(`p${i}`)
    const probes = conditions.map(
      (where, i) => sql`${name(i)} AS MATERIALIZED (
        SELECT t.id, t.deadline_sort FROM tenders t WHERE ${where} LIMIT ${cap})`
    )
    const nearestOf = conditions.map(
      (_, i) => sql`(SELECT ${i}::int AS level, (SELECT count(*)::int FROM ${name(i)}) AS matches, id
        FROM (SELECT id FROM ${name(i)} ORDER BY deadline_sort, id LIMIT ${limit}) n)`
    )
    const rows = yield* planner.sql(false)`WITH ${sql.join(", ", false)(probes)}
      SELECT ${sql.literal(tenderColumns)}, p.level, p.matches
      FROM (${sql.join(" UNION ALL ", false)(nearestOf)}) p JOIN tenders t ON t.id = p.id
      ORDER BY p.level, t.deadline_sort, t.id`.pipe(Effect.flatMap(decodeLevels))
    return conditions.map((_, i): ReadonlyArray<Tender> | undefined => {
      const own = rows.filter((row) => row.level === i)
      return (own[0]?.matches ?? 0) >= cap ? undefined : own.map(({ level: _l, matches: _m, ...tender }) => tender)
    })
  })

  /** The `limit` open tenders of a condition with the nearest deadlines, found the cheaper way (module doc). */
  const nearest = Effect.fn("RankedSearch.nearest")(function* (
    planner: ScanSettings,
    query: SearchQuery,
    where: Statement.Fragment,
    estimate: Estimate,
    shares: Shares,
    limit: number
  ) {
    const stats = yield* statistics
    const share = shares.kept
    const now = DateTime.toEpochMillis(query.now)
    const viaIndex = (cap: number) => probe(planner, [where], limit, cap).pipe(Effect.map(([found]) => found))
    const viaDeadline = (window: number) =>
      Effect.gen(function* () {
        yield* planner.free(true)
        const early = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM (
            SELECT * FROM tenders t WHERE ${openTender(sql, query.now)}
            ORDER BY t.deadline_sort, t.id LIMIT ${window}) t
          WHERE ${where} LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))
        return early.length === limit ? early : undefined
      })
    // The cheapest way by the estimate first; when it falls short (the estimate was wrong), what it read corrects
    // the estimate (SearchCost.ts) and the ways left are weighed again. Asking the planner for every match ends it.
    let current = estimate
    const tried = new Set<string>()
    for (let spans = 0; ;) {
      const route = routeOf(current, share, limit, stats.tenders)
      const span = spans < maxSpans ? spanOf(stats, now, current, shares, limit, query.countries) : undefined
      const way = cheapestWay(route, span, tried)
      tried.add(wayKey(way))
      switch (way._tag) {
        case "All": {
          yield* planner.free(true)
          return yield* page(where, limit)
        }
        case "Index": {
          const found = yield* viaIndex(route.probeCap)
          if (found !== undefined) return found
          current = afterProbe(current, route, share)
          break
        }
        case "Deadline": {
          const found = yield* viaDeadline(route.window)
          if (found !== undefined) return found
          current = afterWindow(current, route, share, limit, stats.tenders)
          break
        }
        case "Span": {
          spans++
          const cap = spanCap(route, limit)
          const lexemes = hasAnyLexeme(sql, way.span.lexemes)
          const [found] = yield* probe(planner, [sql`${where} AND ${lexemes}`], limit, cap)
          if (found?.length === limit) return found
          current = afterSpan(current, way.span, found?.length, cap, share)
        }
      }
    }
  })

  /**
   * The first `limit` tenders of the levels of a one-clause query after the first (`found` holds its tenders, all of
   * them when fewer than `limit`). A level is read only when those before it had fewer than asked for, so all of
   * theirs are found: those of its own found already belong to a level before it. The levels estimated small are
   * probed at once, up to the first large one expected to fill the page.
   */
  const byLevel = Effect.fn("RankedSearch.byLevel")(function* (
    planner: ScanSettings,
    query: SearchQuery,
    levels: ReadonlyArray<ReadonlyArray<string>>,
    found: ReadonlyArray<Tender>
  ) {
    const stats = yield* statistics
    const sampled = yield* sample
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
        probed.get(step) ?? (yield* nearest(planner, query, step.where, step.estimate, step.shares, query.limit))
      const seen = new Set(result.map((tender) => tender.id))
      result.push(...tenders.filter((tender) => !seen.has(tender.id)).slice(0, query.limit - result.length))
    }
    return result
  })

  // Core's `rankOrder`: the tenders matching the whole query first, then by relevance, each clause weighed by its
  // rarity (core `weighClauses`, from the statistics), then by deadline.
  const rankOrderSql = (query: SearchQuery, stats: SearchStatistics) => {
    const weighed = weighedPlan(query, stats)
    return sql`${wholeCondition(sql, query.text)} DESC, ${relevanceSql(sql, weighed)} DESC, t.deadline_sort, t.id`
  }
  // A ranked page's columns: the tender's, and whether it has every clause.
  const rankedColumns = (query: SearchQuery) =>
    sql`${sql.literal(tenderColumns)}, t.search_vec @@ ${allOf(sql, clauseLexemes(query.text))} AS complete`
  const ranked = (query: SearchQuery, stats: SearchStatistics, ids: ReadonlyArray<string>) =>
    sql`SELECT ${rankedColumns(query)}
      FROM tenders t WHERE t.id IN ${sql.in(ids)}
      ORDER BY ${rankOrderSql(query, stats)}
      LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRanked))

  /**
   * A text few tenders have (by the statistics, at most `candidateWindow` after the filters, or made of lexemes too
   * rare for the statistics to list, whose index entries are then few): every match read in one small statement, as
   * the naive baseline reads them, and ranked by core's own rules (`rankOrder`), when they are indeed no more than
   * that (the statement stops reading at one more); else undefined, and the search takes its steps. On PostgreSQL the
   * statement ranks them (`rankOrderSql`) on the bitmap pool, whose sessions plan it once: only the page is sent
   * (p95 at 1M 2.4 -> 1.5 ms). The embedded store, which would plan the longer statement at every call, sends every
   * match with its lexemes and they are ranked here (docs/benchmarks.md, issue 21, fifth session).
   */
  const rankedFew = Effect.fnUntraced(function* (query: SearchQuery) {
    const stats = yield* statistics
    const sampled = yield* sample
    const lexemes = [...new Set(clauseLexemes(query.text).flat())]
    const few =
      stats.unlisted(lexemes) ||
      estimateOf(stats, sampled, [lexemes]).matches * filteredShares(query, stats, sampled, [lexemes]).kept <=
        candidateWindow
    if (!few) return undefined
    const where = searchConditions(sql, query, [hasAnyLexeme(sql, lexemes)])
    if (Option.isSome(bitmap)) {
      const rows = yield* bitmap.value`WITH few AS MATERIALIZED (
          SELECT * FROM tenders t WHERE ${where} LIMIT ${candidateWindow + 1})
        SELECT ${rankedColumns(query)},
          (SELECT count(*) FROM few)::int AS matches
        FROM few t ORDER BY ${rankOrderSql(query, stats)} LIMIT ${query.limit}`.pipe(Effect.flatMap(decodeFew))
      if ((rows[0]?.matches ?? 0) > candidateWindow) return undefined
      return {
        tenders: rows.map(({ complete: _complete, matches: _matches, ...tender }) => tender),
        approximate: rows.some((row) => !row.complete)
      }
    }
    const rows = yield* sql<{ readonly vector: ReadonlyArray<string>; readonly [column: string]: unknown }>`
      SELECT ${sql.literal(tenderColumns)}, tsvector_to_array(t.search_vec) AS vector FROM tenders t WHERE ${where}
      LIMIT ${candidateWindow + 1}`.unprepared
    if (rows.length > candidateWindow) return undefined
    const weighed = weighedPlan(query, stats)
    const clauses = query.text.clauses
    const ranked = rows
      .map(({ vector, ...row }) => {
        const has = new Set(vector)
        const terms = documentTermsOf(lexemes.filter((lexeme) => has.has(lexeme)))
        return {
          row,
          id: String(row["id"]),
          deadline: typeof row["deadline"] === "string" ? row["deadline"] : null,
          complete: hasEveryClause(clauses, terms),
          whole: matchesWhole(clauses, terms),
          score: relevance(weighed, terms)
        }
      })
      .toSorted(rankOrder<{ whole: boolean; score: number; deadline: string | null; id: string }>(deadlineOrder))
      .slice(0, query.limit)
    return {
      tenders: yield* decodeRows(ranked.map(({ row }) => row)),
      approximate: ranked.some((tender) => !tender.complete)
    }
  })

  const rankedSearch = Effect.fnUntraced(function* (query: SearchQuery, planner: ScanSettings) {
    const stats = yield* statistics
    const sampled = yield* sample
    const shareOf = (sets: ReadonlyArray<ReadonlyArray<string>>) => filteredShares(query, stats, sampled, sets)
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
    const top = yield* nearest(planner, query, whereAll(best), estimateAll(best), shareOf(best), query.limit)
    if (top.length === query.limit) return { tenders: top, approximate: false }
    const [clause, ...others] = query.text.clauses
    if (clause !== undefined && others.length === 0) {
      const tenders = yield* byLevel(planner, query, levelLexemes(clause).slice(1), top)
      return { tenders, approximate: false }
    }
    const any = [clauses.flat()]
    const inTitle = clauseLexemes(query.text, ["title"])
    const rarest = clauses.length < 2 ? undefined : rarestClause(clauses, stats)
    const complete =
      stats.matchesOfAny(any[0] ?? []) * shareOf(any).kept <= candidateWindow
        ? (yield* probe(planner, [whereAll(any)], candidateWindow, candidateWindow))[0]
        : undefined
    const candidates = complete ?? [
      ...(yield* nearest(planner, query, whereAll(inTitle), estimateAll(inTitle), shareOf(inTitle), candidateWindow)),
      ...(yield* nearest(planner, query, whereAll(clauses), estimateAll(clauses), shareOf(clauses), candidateWindow)),
      ...(clauses.length >= 3 && clauses.length <= dropOneClauses
        ? yield* nearest(
            planner,
            query,
            searchConditions(sql, query, [sql`t.search_vec @@ ${allButOne(sql, clauses)}`]),
            estimateOfAny(clauses.map((_, i) => estimateAll(clauses.filter((_, j) => j !== i)))),
            shareOf(any),
            candidateWindow
          )
        : []),
      ...(yield* nearest(planner, query, whereAll(any), estimateAll(any), shareOf(any), candidateWindow)),
      // The rarest clause's own: a tender having only the query's most telling word is a candidate however many have
      // only its common ones.
      ...(rarest === undefined
        ? []
        : yield* nearest(planner, query, whereAll([rarest]), estimateAll([rarest]), shareOf([rarest]), candidateWindow))
    ]
    if (candidates.length === 0) return { tenders: [], approximate: false }
    yield* planner.free(true)
    const rows = yield* ranked(query, stats, [...new Set(candidates.map((tender) => tender.id))])
    return {
      tenders: rows.map(({ complete: _complete, ...tender }) => tender),
      approximate: rows.some((row) => !row.complete)
    }
  })

  // Its bitmap statements on the bitmap pool when there is one (PostgreSQL), else in a transaction that sets them.
  const rankedSearchScoped = (query: SearchQuery) => {
    const { settings, scoped } = makeScanSettings(sql, bitmap)
    return scoped(rankedSearch(query, settings))
  }

  /** Searches open tenders: with text best first (`approximate` when some lack a clause), else by deadline. */
  const search = (query: SearchQuery) =>
    query.text.clauses.length > 0
      ? Effect.flatMap(rankedFew(query), (few) => (few === undefined ? rankedSearchScoped(query) : Effect.succeed(few)))
      : Effect.map(page(searchConditions(sql, query, []), query.limit), (tenders) => ({ tenders, approximate: false }))

  return { search, statisticsChanged, sample, statistics }
})
