/**
 * Search by relevance on PostgreSQL (core TextQuery `relevance`), exact where it can be and over a candidate window
 * where not, with a cost that stays bounded however many tenders match:
 * 1. the tenders of the highest relevance there is (every clause's best alternatives in the title), by deadline,
 *    when they fill the page;
 * 2. for a one-clause query, the next levels of relevance in turn, each by deadline, until the page is full;
 * 3. else every tender with any clause, ranked, when fewer than `candidateWindow` have one;
 * 4. else, in each tier (every clause in the title, every clause anywhere, every clause but one when there are
 *    three to `dropOneClauses`, any clause), the `candidateWindow` open tenders with the nearest deadlines, ranked
 *    together: a tender that lacks one word of a long query is among the candidates however many tenders have
 *    only one word.
 * Ties: nearest deadline, then id.
 *
 * Each step needs the open tenders of a text condition with the nearest deadlines (`nearest`). The GIN index finds
 * them at a cost that grows with the matches; the deadline order, at a cost that grows with the tenders read past
 * until enough match. PostgreSQL's planner picks from its estimate of the matches, which can be far off (a term it
 * has no statistics for; two common words that seldom meet): it read every open tender in deadline order for none
 * (200 ms at 100k). So the choice is made here (`routeOf`), from the same statistics (a term's share of tenders, a
 * term without statistics taken as half the rarest with) and the filters' share, and each way is bounded: the GIN
 * index is asked for a bounded number of matches with other scans off, the deadline order reads a bounded number
 * of tenders, and only when both fall short does the planner choose alone.
 */
import type { SearchQuery } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"
import type { Statement } from "effect/sql"
import {
  allButOne,
  allOf,
  anyLexeme,
  bestLexemes,
  clauseLexemes,
  levelLexemes,
  relevanceSql,
  searchConditions
} from "./SearchSql.ts"
import { makeScanSettings, type ScanSettings } from "./ScanSettings.ts"
import { openTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

/** How many tenders of each candidate tier a search ranks (measured in docs/benchmarks.md). */
const candidateWindow = 100
/** The most clauses a query may have for its tenders lacking one clause to be a tier (the tsquery grows as n²). */
const dropOneClauses = 6
/**
 * How the nearest matches of a text condition are found, from the estimate of the tenders having the text
 * (`matches`) and the share the filters keep (`share`). The GIN index reads every tender with the text (m); the
 * deadline order about limit × tenders / (m × share) of them. They cost the same at m × √share = √(limit × tenders)
 * (`balance`): below it the index is asked first, for at most balance × share filtered matches (balance tenders
 * read); above it the deadline order, for at most balance / √share tenders (what it reads at m at the balance).
 */
const routeOf = (matches: number, share: number, limit: number, tenders: number) => {
  const balance = Math.max(100, Math.sqrt(limit * Math.max(tenders, 0)))
  const root = Math.sqrt(Math.max(share, 1e-4))
  return {
    indexFirst: matches * root <= balance,
    probeCap: Math.max(limit + 1, Math.ceil(balance * share)),
    window: Math.ceil(balance / root)
  }
}

type Tender = typeof TenderRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))
const decodeLevels = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, level: Schema.Number, matches: Schema.Number }))
)
const decodeRanked = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean }))
)
const PlanRows = Schema.Array(Schema.Struct({ Plan: Schema.Struct({ "Plan Rows": Schema.Number }) }))
const Statistics = Schema.Struct({
  rows: Schema.Number,
  elems: Schema.NullOr(Schema.Array(Schema.String)),
  freqs: Schema.NullOr(Schema.Array(Schema.Number))
})

/** The planner's statistics of the stored lexemes: about how many tenders have one of them (Infinity when unknown). */
interface TermStatistics {
  readonly tenders: number
  readonly matchesOfAny: (lexemes: ReadonlyArray<string>) => number
}

const toTermStatistics = ({ rows, elems, freqs }: typeof Statistics.Type): TermStatistics => {
  if (rows < 0 || elems === null || freqs === null) return { tenders: Math.max(rows, 0), matchesOfAny: () => Infinity }
  // most_common_elem_freqs: one share per element, then the least and greatest share and the share of nulls.
  const share = new Map(elems.map((elem, i) => [elem, freqs[i] ?? 0]))
  // A lexeme the statistics do not list is rarer than the rarest they do: taken as half of it, as the planner does
  // (tsquery_opr_selec), and the unlisted lexemes of a condition (mostly forms of one word, found together) as one.
  const unlisted = (freqs[elems.length] ?? 0) / 2
  return {
    tenders: rows,
    matchesOfAny: (lexemes) => {
      let listed = 0
      let rare = 0
      for (const lexeme of lexemes) {
        const known = share.get(lexeme)
        if (known === undefined) rare = unlisted
        else listed += known
      }
      return rows * Math.min(1, listed + rare)
    }
  }
}

export const makeRankedSearch = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient

  const loadStatistics = sql`SELECT c.reltuples::float8 AS rows,
      s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs::float8[] AS freqs
    FROM pg_class c LEFT JOIN pg_stats s
      ON s.schemaname = current_schema() AND s.tablename = 'tenders' AND s.attname = 'search_vec'
    WHERE c.oid = 'tenders'::regclass`.pipe(
    Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Statistics))),
    Effect.map((rows) =>
      rows[0] === undefined ? toTermStatistics({ rows: -1, elems: null, freqs: null }) : toTermStatistics(rows[0])
    ),
    Effect.orDie
  )
  // Statistics change when ANALYZE runs (after a large ingest, or by autovacuum): read again after a minute.
  const [statistics, statisticsChanged] = yield* Effect.cachedInvalidateWithTTL(loadStatistics, "1 minute")

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
    const rows = yield* sql`WITH ${sql.join(", ", false)(probes)}
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
    matches: number,
    share: number,
    limit: number
  ) {
    const route = routeOf(matches, share, limit, (yield* statistics).tenders)
    const viaIndex = probe(planner, [where], limit, route.probeCap).pipe(Effect.map(([found]) => found))
    const viaDeadline = Effect.gen(function* () {
      yield* planner.free(true)
      const early = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM (
          SELECT * FROM tenders t WHERE ${openTender(sql, query.now)}
          ORDER BY t.deadline_sort, t.id LIMIT ${route.window}) t
        WHERE ${where} LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))
      return early.length === limit ? early : undefined
    })
    // The way the estimate favours first; when it falls short (the estimate was wrong), the other.
    for (const way of route.indexFirst ? [viaIndex, viaDeadline] : [viaDeadline, viaIndex]) {
      const found = yield* way
      if (found !== undefined) return found
    }
    yield* planner.free(true)
    return yield* page(where, limit)
  })

  /**
   * The first `limit` tenders of the levels of a one-clause query after the first (`found` holds its tenders, all of
   * them when fewer than `limit`). A level is read only when those before it had fewer than asked for, so all of
   * theirs are found: those of its own found already belong to a level before it. The levels the statistics call
   * small are probed at once.
   */
  const byLevel = Effect.fn("RankedSearch.byLevel")(function* (
    planner: ScanSettings,
    query: SearchQuery,
    levels: ReadonlyArray<ReadonlyArray<string>>,
    found: ReadonlyArray<Tender>,
    share: number
  ) {
    const stats = yield* statistics
    const steps = levels.map((lexemes) => {
      const matches = stats.matchesOfAny(lexemes)
      return {
        where: searchConditions(sql, query, [sql`t.search_vec @@ ${anyLexeme(lexemes)}::tsquery`]),
        matches,
        route: routeOf(matches, share, query.limit, stats.tenders)
      }
    })
    const small = steps.filter((step) => step.route.indexFirst)
    const probed = new Map(
      (yield* probe(
        planner,
        small.map((step) => step.where),
        query.limit,
        routeOf(0, share, query.limit, stats.tenders).probeCap
      )).map((tenders, i) => [small[i], tenders] as const)
    )
    const result = [...found]
    for (const step of steps) {
      if (result.length >= query.limit) break
      const tenders = probed.get(step) ?? (yield* nearest(planner, query, step.where, step.matches, share, query.limit))
      const seen = new Set(result.map((tender) => tender.id))
      result.push(...tenders.filter((tender) => !seen.has(tender.id)).slice(0, query.limit - result.length))
    }
    return result
  })

  const ranked = (query: SearchQuery, ids: ReadonlyArray<string>) =>
    sql`SELECT ${sql.literal(tenderColumns)}, t.search_vec @@ ${allOf(sql, clauseLexemes(query.text))} AS complete
      FROM tenders t WHERE t.id IN ${sql.in(ids)}
      ORDER BY ${relevanceSql(sql, query.text)} DESC, t.deadline_sort, t.id
      LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRanked))

  // The share of tenders the structured filters keep, as the planner estimates it (its column statistics of
  // country, budget, codes and deadline are good; 1 without filters).
  const filterShare = Effect.fn("RankedSearch.filterShare")(function* (query: SearchQuery, tenders: number) {
    const filtered =
      query.countries.length > 0 ||
      query.cpvPrefixes.length > 0 ||
      query.budget !== undefined ||
      query.deadlineAfter !== undefined
    if (!filtered || tenders <= 0) return 1
    const plans = yield* sql<{ readonly "QUERY PLAN": unknown }>`EXPLAIN (FORMAT JSON) SELECT 1 FROM tenders t
      WHERE ${searchConditions(sql, query, [])}`.unprepared
    const rows = yield* Schema.decodeUnknownEffect(PlanRows)(plans[0]?.["QUERY PLAN"])
    return Math.min(1, (rows[0]?.Plan["Plan Rows"] ?? tenders) / tenders)
  })

  const rankedSearch = Effect.fnUntraced(function* (query: SearchQuery) {
    const planner = makeScanSettings(sql)
    const stats = yield* statistics
    const share = yield* filterShare(query, stats.tenders)
    const clauses = clauseLexemes(query.text)
    const best = bestLexemes(query.text)
    const whereAll = (sets: ReadonlyArray<ReadonlyArray<string>>) =>
      searchConditions(sql, query, [sql`t.search_vec @@ ${allOf(sql, sets)}`])
    // As the planner does, clauses are taken as independent: an estimate, not a bound (either way is bounded).
    const estimateAll = (sets: ReadonlyArray<ReadonlyArray<string>>) =>
      sets.reduce((matches, set) => (matches * stats.matchesOfAny(set)) / Math.max(stats.tenders, 1), stats.tenders)
    const top = yield* nearest(planner, query, whereAll(best), estimateAll(best), share, query.limit)
    if (top.length === query.limit) return { tenders: top, approximate: false }
    const [clause, ...others] = query.text.clauses
    if (clause !== undefined && others.length === 0) {
      const tenders = yield* byLevel(planner, query, levelLexemes(clause).slice(1), top, share)
      return { tenders, approximate: false }
    }
    const any = [clauses.flat()]
    const complete =
      stats.matchesOfAny(any[0] ?? []) * share <= candidateWindow
        ? (yield* probe(planner, [whereAll(any)], candidateWindow, candidateWindow))[0]
        : undefined
    const candidates = complete ?? [
      ...(yield* nearest(
        planner,
        query,
        whereAll(clauseLexemes(query.text, ["title"])),
        estimateAll(clauseLexemes(query.text, ["title"])),
        share,
        candidateWindow
      )),
      ...(yield* nearest(planner, query, whereAll(clauses), estimateAll(clauses), share, candidateWindow)),
      ...(clauses.length >= 3 && clauses.length <= dropOneClauses
        ? yield* nearest(
            planner,
            query,
            searchConditions(sql, query, [sql`t.search_vec @@ ${allButOne(sql, clauses)}`]),
            clauses.reduce((sum, _, i) => sum + estimateAll(clauses.filter((_, j) => j !== i)), 0),
            share,
            candidateWindow
          )
        : []),
      ...(yield* nearest(planner, query, whereAll(any), estimateAll(any), share, candidateWindow))
    ]
    if (candidates.length === 0) return { tenders: [], approximate: false }
    yield* planner.free(true)
    const rows = yield* ranked(query, [...new Set(candidates.map((tender) => tender.id))])
    return {
      tenders: rows.map(({ complete: _complete, ...tender }) => tender),
      approximate: rows.some((row) => !row.complete)
    }
  })

  /** Searches open tenders: with text best first (`approximate` when some lack a clause), else by deadline. */
  const search = (query: SearchQuery) =>
    query.text.clauses.length > 0
      ? sql.withTransaction(rankedSearch(query))
      : Effect.map(page(searchConditions(sql, query, []), query.limit), (tenders) => ({ tenders, approximate: false }))

  return { search, statisticsChanged }
})
