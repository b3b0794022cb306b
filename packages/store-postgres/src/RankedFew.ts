/**
 * The first step of a ranked search (RankedSearch.ts): a text few tenders have (by the statistics, at most
 * `candidateWindow` after the filters, or made of lexemes too rare for the statistics to list, whose index entries
 * are then few): every match read in one small statement, as the naive baseline reads them, and ranked by core's own
 * rules (`rankOrder`), when they are indeed no more than that (the statement stops reading at one more); else
 * undefined, and the search takes its steps. On PostgreSQL the statement ranks them (`rankOrderSql`) on the bitmap
 * pool, whose sessions plan it once: only the page is sent (p95 at 1M 2.4 -> 1.5 ms). The embedded store, which would
 * plan the longer statement at every call, sends every match with its lexemes and they are ranked here
 * (docs/benchmarks.md, issue 21, fifth session).
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
import type { PgClient } from "@effect/sql-pg"
import { Effect, Option, Schema } from "effect"
import type { LexemeSample } from "./LexemeSample.ts"
import { candidateWindow } from "./SearchCost.ts"
import { estimateOf, filteredShares, weighedPlan } from "./SearchEstimate.ts"
import {
  clauseLexemes,
  hasAnyLexeme,
  rankedColumns,
  rankOrderSql,
  searchConditions,
  termOfLexeme
} from "./SearchSql.ts"
import type { SearchStatistics } from "./SearchStatistics.ts"
import { decodeTenderRows, decodeTenderRowsWith, tenderColumns } from "./TenderRow.ts"

const decodeFew = decodeTenderRowsWith({ complete: Schema.Boolean, matches: Schema.Number })

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

/**
 * What a search weighs its ways with, read once before its statements (RankedSearch.ts): the planner's statistics and
 * the sample of how often lexemes meet.
 */
export interface StatisticsRead {
  readonly stats: SearchStatistics
  readonly sampled: LexemeSample
}

/** The search of a text few tenders have: its page, or undefined when they are more (module doc). */
export const makeRankedFew = (sql: PgClient.PgClient, bitmap: Option.Option<PgClient.PgClient>) =>
  Effect.fnUntraced(function* (query: SearchQuery, { stats, sampled }: StatisticsRead) {
    const lexemes = [...new Set(clauseLexemes(query.text).flat())]
    const few =
      stats.unlisted(lexemes) ||
      estimateOf(stats, sampled, [lexemes]).matches * filteredShares(query, stats, sampled, [lexemes]).kept <=
        candidateWindow
    if (!few) return undefined
    const where = searchConditions(sql, query, [hasAnyLexeme(sql, lexemes)])
    if (Option.isSome(bitmap)) {
      const order = rankOrderSql(sql, query.text, weighedPlan(query, stats))
      const rows = yield* bitmap.value`WITH few AS MATERIALIZED (
          SELECT * FROM tenders t WHERE ${where} LIMIT ${candidateWindow + 1})
        SELECT ${rankedColumns(sql, query.text)},
          (SELECT count(*) FROM few)::int AS matches
        FROM few t ORDER BY ${order} LIMIT ${query.limit}`.pipe(Effect.flatMap(decodeFew))
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
      tenders: yield* decodeTenderRows(ranked.map(({ row }) => row)),
      approximate: ranked.some((tender) => !tender.complete)
    }
  })
