import { type SearchQuery, type TenderId, type TenderRecord, TenderStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema, type Statement } from "effect/sql"
import { searchConditions, textQuery } from "./SearchSql.ts"
import { lapsedTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"
import { writeTenders } from "./TenderWrite.ts"

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))

/** TenderStore on PostgreSQL (real or embedded). */
export const PgTenderStore = Layer.effect(
  TenderStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    // A tender and its change event commit together: a crash in between would leave a tender whose content hash
    // never changes again, so its `new` event, and every alert it should raise, would never come.
    const upsertBatch = Effect.fn("PgTenderStore.upsert")(function* (records: ReadonlyArray<TenderRecord>) {
      const latest = [...new Map(records.map((r) => [r.id, r])).values()]
      if (latest.length === 0) return { new: 0, updated: 0, unchanged: records.length }
      const now = DateTime.formatIso(yield* DateTime.now)
      const written = yield* Effect.gen(function* () {
        const rows = yield* writeTenders(
          sql,
          latest.map((record) => ({ record, procedureKey: record.nativeId })),
          now
        )
        if (rows.length > 0) {
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

    // Relevance in two exact tiers: tenders whose title has every word, then those matching elsewhere
    // (lot names, buyer, codes); nearest deadline first within a tier. The second tier runs only when the
    // first leaves room, so broad words stop after one early-exit index scan. When neither finds anything,
    // titles and buyers with similar words (pg_trgm word similarity) answer, marked approximate.
    const search = Effect.fn("PgTenderStore.search")(function* (query: SearchQuery) {
      const text = textQuery(sql, query.words)
      if (text === undefined)
        return { tenders: yield* page(searchConditions(sql, query, []), query.limit), approximate: false }
      const inTitle = yield* page(searchConditions(sql, query, [sql`t.title_vec @@ ${text}`]), query.limit)
      if (inTitle.length >= query.limit) return { tenders: inTitle, approximate: false }
      const elsewhere = yield* page(
        searchConditions(sql, query, [sql`t.search_vec @@ ${text}`, sql`NOT (t.title_vec @@ ${text})`]),
        query.limit - inTitle.length
      )
      if (inTitle.length + elsewhere.length > 0) return { tenders: [...inTitle, ...elsewhere], approximate: false }
      const words = query.words.map((token) => token.text).join(" ")
      const similar = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
        WHERE ${searchConditions(sql, query, [sql`(${words} <% lower(t.title) OR ${words} <% lower(t.buyer))`])}
        ORDER BY greatest(word_similarity(${words}, lower(t.title)),
            coalesce(word_similarity(${words}, lower(t.buyer)), 0)) DESC,
          t.deadline_sort, t.id
        LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRows))
      return { tenders: similar, approximate: similar.length > 0 }
    }, Effect.orDie)

    const count = Effect.fn("PgTenderStore.count")(function* (query: SearchQuery) {
      const text = textQuery(sql, query.words)
      const where = searchConditions(sql, query, text === undefined ? [] : [sql`t.search_vec @@ ${text}`])
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

    return TenderStore.of({ upsert: upsertBatch, search, count, get, size, refreshStatistics, closeExpired })
  })
)
