/**
 * The open tenders of a text condition with the nearest deadlines, which each step of a ranked search needs
 * (RankedSearch.ts): the ways of SearchCost.ts as statements, tried cheapest first. The GIN index probed with other
 * scans off (`probe`), up to a cap of matches; the deadline order read up to a window of tenders; the GIN index asked
 * for the tenders due in a span of days (a probe); the planner asked for every match (`page`).
 *
 * Statements the planner plans run unprepared: a cached generic plan cannot see the words. Those that run with the GIN
 * index only are prepared: their plan is the same for every word.
 */
import type { SearchQuery } from "@tenders/core"
import type { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Schema } from "effect"
import type { Statement } from "effect/sql"
import type { ScanSettings } from "./ScanSettings.ts"
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
import type { Estimate, Shares } from "./SearchEstimate.ts"
import { hasAnyLexeme } from "./SearchSql.ts"
import type { SearchStatistics } from "./SearchStatistics.ts"
import { openTender } from "./Sql.ts"
import { decodeTenderRows, decodeTenderRowsWith, type Tender, tenderColumns } from "./TenderRow.ts"

const decodeLevels = decodeTenderRowsWith({ level: Schema.Number, matches: Schema.Number })

/**
 * The statements of the nearest tenders, on the main client, weighed with the planner's statistics. The statistics are
 * read by the caller before its transaction: on the embedded store, a transaction that waited for a read of them on
 * another connection would hold the one session that read needs (decisions.md, "the embedded store under load").
 */
export const makeNearestTenders = (sql: PgClient.PgClient) => {
  /** The `limit` tenders of a condition by deadline, the planner choosing the plan. */
  const page = (where: Statement.Fragment, limit: number) =>
    sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE ${where}
      ORDER BY t.deadline_sort, t.id LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeTenderRows))

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
    yield* planner.indexOnly
    const name = (i: number) => sql.literal(`p${i}`)
    const probes = conditions.map(
      (where, i) => sql`${name(i)} AS MATERIALIZED (
        SELECT t.id, t.deadline_sort FROM tenders t WHERE ${where} LIMIT ${cap})`
    )
    const nearestOf = conditions.map(
      (_, i) => sql`(SELECT ${i}::int AS level, (SELECT count(*)::int FROM ${name(i)}) AS matches, id
        FROM (SELECT id FROM ${name(i)} ORDER BY deadline_sort, id LIMIT ${limit}) n)`
    )
    const rows = yield* planner.indexOnlySql`WITH ${sql.join(", ", false)(probes)}
      SELECT ${sql.literal(tenderColumns)}, p.level, p.matches
      FROM (${sql.join(" UNION ALL ", false)(nearestOf)}) p JOIN tenders t ON t.id = p.id
      ORDER BY p.level, t.deadline_sort, t.id`.pipe(Effect.flatMap(decodeLevels))
    return conditions.map((_, i): ReadonlyArray<Tender> | undefined => {
      const own = rows.filter((row) => row.level === i)
      return (own[0]?.matches ?? 0) >= cap ? undefined : own.map(({ level: _l, matches: _m, ...tender }) => tender)
    })
  })

  /** The `limit` open tenders of a condition with the nearest deadlines, found the cheaper way (SearchCost.ts). */
  const nearest = Effect.fn("RankedSearch.nearest")(function* (
    planner: ScanSettings,
    stats: SearchStatistics,
    query: SearchQuery,
    where: Statement.Fragment,
    estimate: Estimate,
    shares: Shares,
    limit: number
  ) {
    const share = shares.kept
    const now = DateTime.toEpochMillis(query.now)
    const viaIndex = (cap: number) => probe(planner, [where], limit, cap).pipe(Effect.map(([found]) => found))
    const viaDeadline = (window: number) =>
      Effect.gen(function* () {
        yield* planner.plannerChooses
        const early = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM (
            SELECT * FROM tenders t WHERE ${openTender(sql, query.now)}
            ORDER BY t.deadline_sort, t.id LIMIT ${window}) t
          WHERE ${where} LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeTenderRows))
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
          yield* planner.plannerChooses
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

  return { page, probe, nearest }
}
