import {
  minSimilarity,
  type SearchQuery,
  SearchText,
  type SpellingQuestion,
  type TenderId,
  type TenderRecord,
  TenderStore
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema, type Statement } from "effect/sql"
import { anyClause, anyOf, everyClause, relevanceSql, searchConditions } from "./SearchSql.ts"
import { lapsedTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"
import { rememberWords, writeTenders } from "./TenderWrite.ts"

/** How many tenders of each candidate tier a search ranks (measured in docs/benchmarks.md). */
export const candidateWindow = 300

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))
const decodeRanked = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean }))
)

/** TenderStore on PostgreSQL (real or embedded). */
export const PgTenderStore = Layer.effect(
  TenderStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const text = yield* SearchText

    // A tender and its change event commit together: a crash in between would leave a tender whose content hash
    // never changes again, so its `new` event, and every alert it should raise, would never come.
    const upsertBatch = Effect.fn("PgTenderStore.upsert")(function* (records: ReadonlyArray<TenderRecord>) {
      const latest = [...new Map(records.map((r) => [r.id, r])).values()]
      if (latest.length === 0) return { new: 0, updated: 0, unchanged: records.length }
      const now = DateTime.formatIso(yield* DateTime.now)
      const written = yield* Effect.gen(function* () {
        const rows = yield* writeTenders(
          sql,
          text,
          latest.map((record) => ({ record, procedureKey: record.nativeId })),
          now
        )
        if (rows.length > 0) {
          const written = new Set(rows.map((row) => row.id))
          yield* rememberWords(
            sql,
            text,
            latest.filter((record) => written.has(record.id))
          )
          const events = rows.map((w) => ({ id: w.id, change: w.inserted ? "new" : "updated" }))
          yield* sql`INSERT INTO tender_events (tender_id, change, notice_key, created_at)
              SELECT e.id, e.change, NULL, ${now}::timestamptz
              FROM jsonb_to_recordset(${sql.json(events)}) AS e(id text, change text)`
        }
        return rows
      }).pipe(sql.withTransaction)
      const created = written.filter((w) => w.inserted).length
      return { new: created, updated: written.length - created, unchanged: records.length - written.length }
    }, Effect.orDie)

    // Searches run unprepared: a cached generic plan cannot see the words, and the right plan (GIN index for
    // rare words, deadline order with early exit for broad ones) depends on them.
    const page = (where: Statement.Fragment, limit: number) =>
      sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE ${where}
        ORDER BY t.deadline_sort, t.id LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))

    // Relevance ranking (core TextQuery `relevance`) over a candidate window: in each of three tiers (every clause in
    // the title, every clause anywhere, any clause), the `candidateWindow` open tenders with the nearest deadlines;
    // the window is ranked by relevance, then nearest deadline, then id. Each tier is one index-friendly query (the
    // GIN index for rare words, the deadline index with early exit for broad ones), so the cost is bounded however
    // many tenders match; when a tier has fewer matches than the window, the ranking over it is exact.
    const search = Effect.fn("PgTenderStore.search")(function* (query: SearchQuery) {
      const any = anyClause(sql, query.text)
      const every = everyClause(sql, query.text)
      if (any === undefined || every === undefined)
        return { tenders: yield* page(searchConditions(sql, query, []), query.limit), approximate: false }
      const tier = (match: Statement.Fragment) =>
        sql`(SELECT t.id FROM tenders t WHERE ${searchConditions(sql, query, [match])}
          ORDER BY t.deadline_sort, t.id LIMIT ${candidateWindow})`
      const rows = yield* sql`WITH candidates AS (${tier(sql`t.title_vec @@ ${every}`)}
          UNION ${tier(sql`t.search_vec @@ ${every}`)} UNION ${tier(sql`t.search_vec @@ ${any}`)})
        SELECT ${sql.literal(tenderColumns)}, t.search_vec @@ ${every} AS complete
        FROM tenders t JOIN candidates c ON c.id = t.id
        ORDER BY ${relevanceSql(sql, query.text)} DESC, t.deadline_sort, t.id
        LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRanked))
      return {
        tenders: rows.map(({ complete: _complete, ...tender }) => tender),
        approximate: rows.some((row) => !row.complete)
      }
    }, Effect.orDie)

    // A word is known when an open tender has one of its forms (the GIN index answers at the first); an unknown
    // word is read as the vocabulary word most like it (the trigram index finds candidates above pg_trgm's 0.3).
    const spellings = Effect.fn("PgTenderStore.spellings")(function* (questions: ReadonlyArray<SpellingQuestion>) {
      const found = new Map<string, string>()
      for (const question of questions) {
        const rows = yield* sql<{ word: string }>`SELECT v.word FROM search_vocabulary v
          WHERE NOT EXISTS (SELECT 1 FROM tenders t WHERE t.status IN ('open', 'amended')
              AND t.search_vec @@ ${anyOf(question.forms)}::tsquery)
            AND v.word % ${question.lookup} AND similarity(v.word, ${question.lookup}) >= ${minSimilarity}
          ORDER BY similarity(v.word, ${question.lookup}) DESC, v.word LIMIT 1`.unprepared
        const word = rows[0]?.word
        if (word !== undefined) found.set(question.text, word)
      }
      return found
    }, Effect.orDie)

    const count = Effect.fn("PgTenderStore.count")(function* (query: SearchQuery) {
      const every = everyClause(sql, query.text)
      const where = searchConditions(sql, query, every === undefined ? [] : [sql`t.search_vec @@ ${every}`])
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders t WHERE ${where}`.unprepared
      return rows[0]?.n ?? 0
    }, Effect.orDie)

    const byIdOrAlias = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: TenderRow,
      execute: (id) => sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
        WHERE t.id = COALESCE((SELECT a.tender_id FROM tender_aliases a WHERE a.alias = ${id}), ${id})`
    })
    const get = Effect.fn("PgTenderStore.get")((id: TenderId) => byIdOrAlias(id), Effect.orDie)

    const size = sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders`.pipe(
      Effect.map((rows) => rows[0]?.n ?? 0),
      Effect.orDie
    )

    // The status column changes; the content hash does not, so re-ingesting the same record leaves it closed.
    const closeExpired = Effect.gen(function* () {
      const now = yield* DateTime.now
      const rows = yield* sql<{ n: number }>`WITH closed AS (
          UPDATE tenders t SET status = 'closed', updated_at = ${DateTime.formatIso(now)}::timestamptz
          WHERE ${lapsedTender(sql, now)}
          RETURNING t.id
        ), events AS (
          INSERT INTO tender_events (tender_id, change, notice_key, created_at)
          SELECT id, 'closed', NULL, ${DateTime.formatIso(now)}::timestamptz FROM closed
        )
        SELECT count(*)::int AS n FROM closed`
      return rows[0]?.n ?? 0
    }).pipe(Effect.orDie, Effect.withSpan("PgTenderStore.closeExpired"))

    const refreshStatistics = sql`ANALYZE tenders`.pipe(
      Effect.asVoid,
      Effect.orDie,
      Effect.withSpan("PgTenderStore.refreshStatistics")
    )

    return TenderStore.of({
      upsert: upsertBatch,
      search,
      spellings,
      count,
      get,
      size,
      refreshStatistics,
      closeExpired
    })
  })
)
