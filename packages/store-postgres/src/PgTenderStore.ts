import {
  bestCorrection,
  spellingCandidates,
  type SpellingCandidate,
  type SearchQuery,
  SearchText,
  type SpellingQuestion,
  type TenderId,
  type TenderRecord,
  TenderStore
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Fiber, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { makeRankedSearch } from "./RankedSearch.ts"
import { transactionSettings } from "./ScanSettings.ts"
import { anyOf, everyClause, lexemesOf, searchConditions } from "./SearchSql.ts"
import { at, lapsedTender, lockEventWriters, openTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"
import { batchWords, insertRows, writeTendersWithEvents } from "./TenderWrite.ts"

/** How many tenders one statement of an upsert writes. */
const writeChunk = 125

/**
 * How many lapsed tenders one statement of the deadline sweep closes: few enough that the planner keeps to the
 * deadline index (on a year of data made for the audit, PostgreSQL 15 read every tender for 10,000).
 */
const closeBatch = 1_000

/** TenderStore on PostgreSQL (real or embedded). */
export const PgTenderStore = Layer.effect(
  TenderStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const text = yield* SearchText
    const ranked = yield* makeRankedSearch

    // A tender and its change event commit together: a crash in between would leave a tender whose content hash
    // never changes again, so its `new` event, and every alert it should raise, would never come. The batch is
    // written in chunks, one statement each (tenders, events, words), in one transaction that first takes the event
    // writers' lock (Sql.ts `lockEventWriters`); the text analysis of the next chunk runs while PostgreSQL writes the
    // one before.
    const upsertBatch = Effect.fn("PgTenderStore.upsert")(function* (records: ReadonlyArray<TenderRecord>) {
      const latest = [...new Map(records.map((r) => [r.id, r])).values()]
      if (latest.length === 0) return { new: 0, updated: 0, unchanged: records.length }
      const now = DateTime.formatIso(yield* DateTime.now)
      const chunks = Array.from({ length: Math.ceil(latest.length / writeChunk) }, (_, i) =>
        latest.slice(i * writeChunk, (i + 1) * writeChunk)
      )
      const prepare = (chunk: ReadonlyArray<TenderRecord>) => ({
        rows: insertRows(
          text,
          chunk.map((record) => ({ record, procedureKey: record.nativeId }))
        ),
        words: batchWords(text, chunk)
      })
      const written = yield* Effect.gen(function* () {
        yield* lockEventWriters(sql)
        const done: Array<{ readonly id: string; readonly inserted: boolean }> = []
        let next = prepare(chunks[0] ?? [])
        for (let i = 0; i < chunks.length; i++) {
          const { rows, words } = next
          const writing = yield* Effect.forkChild(writeTendersWithEvents(sql, rows, words, now))
          yield* Effect.yieldNow // the statement is sent before the next chunk's analysis takes the thread
          if (i + 1 < chunks.length) next = prepare(chunks[i + 1] ?? [])
          done.push(...(yield* Fiber.join(writing)))
        }
        return done
      }).pipe(sql.withTransaction)
      const created = written.filter((w) => w.inserted).length
      return { new: created, updated: written.length - created, unchanged: records.length - written.length }
    }, Effect.orDie)

    // Relevance ranking, and open tenders by deadline without text: RankedSearch.ts.
    const search = Effect.fn("PgTenderStore.search")((query: SearchQuery) => ranked.search(query), Effect.orDie)

    // A word is known when the vocabulary has it as written, or an open tender has one of its forms; an unknown word
    // is read as the vocabulary word core's `bestCorrection` picks (fewest edits within the word's typo budget, then
    // the most frequent) of the `spellingCandidates` most alike by trigrams (the trigram index finds them). The
    // vocabulary's key is asked first, in one statement for all the words (a common word's forms would have the GIN
    // index read every entry of them: 6-14 ms at 1M); most queries end there. Then the sample of open tenders'
    // lexemes (LexemeSample.ts): a misspelt inflection of a common word ("лекарственых") has a common stem. The words
    // left are looked for in one statement with bitmap scans only (ScanSettings.ts, in a transaction of its own): the
    // planner guesses a few rows for a form no tender has, and would read every tender.
    const spellings = Effect.fn("PgTenderStore.spellings")(function* (questions: ReadonlyArray<SpellingQuestion>) {
      if (questions.length === 0) return new Map<string, string>()
      const looked = sql.join(", ", false)(questions.map((q) => sql`(${q.text}, ${q.lookup})`))
      const unwritten = new Set(
        (yield* sql<{ text: string }>`SELECT q.text FROM (VALUES ${looked}) AS q(text, lookup)
          WHERE NOT EXISTS (SELECT 1 FROM search_vocabulary v WHERE v.word = q.lookup)`).map((row) => row.text)
      )
      const sample = unwritten.size === 0 ? undefined : yield* ranked.sample
      const unknown = questions.filter((q) => unwritten.has(q.text) && !sample?.hasAny(lexemesOf(q.forms)))
      if (unknown.length === 0) return new Map<string, string>()
      const now = yield* DateTime.now
      const forms = (q: SpellingQuestion) =>
        q.forms.length === 0 ? sql`NULL::tsquery` : sql`${anyOf(q.forms)}::tsquery`
      const asked = sql.join(", ", false)(unknown.map((q) => sql`(${q.text}, ${q.lookup}, ${forms(q)})`))
      const rows = yield* sql.withTransaction(
        Effect.andThen(
          Effect.andThen(
            transactionSettings(sql).indexOnly,
            sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(spellingCandidates.minSimilarity)}, true)`
          ),
          sql<{ text: string; lookup: string; word: string; similarity: number }>`WITH unknown AS MATERIALIZED (
                SELECT q.text, q.lookup FROM (VALUES ${asked}) AS q(text, lookup, forms)
                WHERE NOT EXISTS (SELECT 1 FROM tenders t WHERE ${openTender(sql, now)} AND t.search_vec @@ q.forms))
              SELECT u.text, u.lookup, c.word, c.similarity FROM unknown u
              CROSS JOIN LATERAL (SELECT v.word, similarity(v.word, u.lookup)::float8 AS similarity
                FROM search_vocabulary v WHERE v.word % u.lookup
                ORDER BY similarity(v.word, u.lookup) DESC, v.word LIMIT ${spellingCandidates.count}) c`
        )
      )
      // How many tenders have a candidate: the statistics' share of its lexemes (a word they do not list is rare).
      const stats = yield* ranked.statistics
      const frequencyOf = (word: string) => {
        const matches = stats.matchesOfAny(lexemesOf([word]))
        return Number.isFinite(matches) ? matches : undefined
      }
      const candidates = new Map<string, { lookup: string; list: Array<SpellingCandidate> }>()
      for (const row of rows) {
        const entry = candidates.get(row.text) ?? { lookup: row.lookup, list: [] }
        const frequency = frequencyOf(row.word)
        entry.list.push({
          word: row.word,
          similarity: row.similarity,
          ...(frequency === undefined ? {} : { frequency })
        })
        candidates.set(row.text, entry)
      }
      return new Map(
        [...candidates].flatMap(([text, { lookup, list }]) => {
          const best = bestCorrection(lookup, list)
          return best === undefined ? [] : [[text, best] as const]
        })
      )
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

    // The status column changes; the content hash does not, so re-ingesting the same record leaves it closed. The
    // lapsed tenders are found through the live tenders' deadline index (`tenders_open_deadline_idx`), earliest
    // first, `closeBatch` at a time until a batch is not full: the planner, misled by the history's share of past
    // deadlines, read every tender otherwise (at 1M, 190,000 pages a sweep, every tick on every replica). Each batch
    // is a transaction holding the event writers' lock (Sql.ts `lockEventWriters`), as an ingest's is.
    const closeLapsed = (now: DateTime.Utc) =>
      Effect.andThen(
        lockEventWriters(sql),
        sql<{ n: number }>`WITH closed AS (
          UPDATE tenders t SET status = 'closed', updated_at = ${at(sql, now)}
          FROM (SELECT t.id FROM tenders t WHERE ${lapsedTender(sql, now)}
            ORDER BY t.deadline_sort LIMIT ${closeBatch}) lapsed
          WHERE t.id = lapsed.id AND ${lapsedTender(sql, now)}
          RETURNING t.id
        ), events AS (
          INSERT INTO tender_events (tender_id, change, notice_key, created_at)
          SELECT id, 'closed', NULL, ${at(sql, now)} FROM closed
        )
        SELECT count(*)::int AS n FROM closed`
      ).pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        sql.withTransaction
      )
    const closeExpired = Effect.gen(function* () {
      const now = yield* DateTime.now
      let total = 0
      while (true) {
        const closed = yield* closeLapsed(now)
        total += closed
        if (closed < closeBatch) return total
      }
    }).pipe(Effect.orDie, Effect.withSpan("PgTenderStore.closeExpired"))

    // After a large ingest: VACUUM merges the entries waiting in the GIN index's pending list (fast writes), which
    // every search reads through (at 100k, a rare word's lookup went from 3.6 ms to 0.07 ms), and marks the new rows
    // visible to all, which the searches' heap reads would otherwise each check and mark on first reading (at 1M, the
    // first searches over freshly written rows: p95 up to 12 ms against 9 settled); ANALYZE refreshes the statistics.
    const refreshStatistics = sql`VACUUM (ANALYZE) tenders`.pipe(
      Effect.andThen(ranked.statisticsChanged),
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
