import { cpvPrefixesOf, type SearchQuery, type StoredTender, subjectOf, type TenderRecord, TenderStore, splitByScript } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import type { Statement } from "effect/sql"
import { searchConditions, textQuery } from "./SearchSql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

// Lower-cased here: the database's locale may be C, where lower() leaves Cyrillic and Armenian alone.
// Latin words are stemmed as English and Cyrillic as Russian on both sides; Armenian words and words of no
// stemmed script (numbers, codes) are also kept whole in the `simple` configuration, for prefix matching.
const vectorParts = (prefix: string, raw: string) => {
  const parts = splitByScript(raw.toLowerCase())
  return {
    [`${prefix}_latin`]: parts.latin,
    [`${prefix}_cyr`]: parts.cyrillic,
    [`${prefix}_arm`]: parts.armenian,
    [`${prefix}_all`]: `${parts.armenian} ${parts.other}`
  }
}

const toInsertRow = (record: TenderRecord) => ({
  doc: record,
  ...vectorParts("a", record.title),
  ...vectorParts("b", subjectOf(record) ?? record.lots.map((l) => l.title).join(" ")),
  ...vectorParts("c", [record.buyer ?? "", record.region ?? ""].join(" ")),
  d_all: [record.nativeId, ...record.cpvCodes, ...record.okpd2Codes].join(" ").toLowerCase(),
  cpv_prefixes: [...new Set([...record.cpvCodes, ...record.lots.flatMap((l) => l.cpvCodes)].flatMap(cpvPrefixesOf))]
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))

/** TenderStore on PostgreSQL (real or embedded). */
export const PgTenderStore = Layer.effect(
  TenderStore,
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient

    const upsertBatch = Effect.fn("PgTenderStore.upsert")(function*(records: ReadonlyArray<TenderRecord>) {
      const latest = new Map(records.map((r) => [r.id, r]))
      const now = DateTime.formatIso(yield* DateTime.now)
      const rows = [...latest.values()].map(toInsertRow)
      if (rows.length === 0) return { new: 0, updated: 0, unchanged: records.length }
      const written = yield* sql<{ inserted: boolean }>`
        INSERT INTO tenders AS t (id, source, native_id, title, buyer, country, region, budget, currency, deadline,
          published_at, status, url, cpv_codes, okpd2_codes, lots, docs_url, cpv_prefixes, title_vec, search_vec, content_hash,
          created_at, updated_at)
        SELECT r.doc->>'id', r.doc->>'source', r.doc->>'nativeId', r.doc->>'title', r.doc->>'buyer', r.doc->>'country',
          r.doc->>'region', (r.doc->>'budget')::numeric, r.doc->>'currency', (r.doc->>'deadline')::timestamptz,
          (r.doc->>'publishedAt')::timestamptz, r.doc->>'status', r.doc->>'url',
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'cpvCodes')),
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'okpd2Codes')),
          r.doc->'lots',
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'docsUrl')),
          r.cpv_prefixes,
          v.title_vec,
          v.title_vec ||
          tenders_text_vector(r.b_latin, r.b_cyr, r.b_arm, r.b_all, 'B') ||
          tenders_text_vector(r.c_latin, r.c_cyr, r.c_arm, r.c_all, 'C') ||
          setweight(to_tsvector('simple', r.d_all), 'D'),
          md5(r.doc::text), ${now}::timestamptz, ${now}::timestamptz
        FROM jsonb_to_recordset(${sql.json(rows)}) AS r(doc jsonb, a_latin text, a_cyr text, a_arm text, a_all text,
          b_latin text, b_cyr text, b_arm text, b_all text, c_latin text, c_cyr text, c_arm text, c_all text,
          d_all text, cpv_prefixes text[]),
          LATERAL (SELECT tenders_text_vector(r.a_latin, r.a_cyr, r.a_arm, r.a_all, 'A') AS title_vec) v
        ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, native_id = EXCLUDED.native_id, title = EXCLUDED.title,
          buyer = EXCLUDED.buyer, country = EXCLUDED.country, region = EXCLUDED.region, budget = EXCLUDED.budget,
          currency = EXCLUDED.currency, deadline = EXCLUDED.deadline, published_at = EXCLUDED.published_at,
          status = EXCLUDED.status, url = EXCLUDED.url, cpv_codes = EXCLUDED.cpv_codes, okpd2_codes = EXCLUDED.okpd2_codes,
          lots = EXCLUDED.lots, docs_url = EXCLUDED.docs_url, cpv_prefixes = EXCLUDED.cpv_prefixes,
          title_vec = EXCLUDED.title_vec, search_vec = EXCLUDED.search_vec, content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at
        WHERE t.content_hash <> EXCLUDED.content_hash
        RETURNING (xmax = 0) AS inserted`
      const created = written.filter((w) => w.inserted).length
      return { new: created, updated: written.length - created, unchanged: records.length - written.length }
    }, Effect.orDie)

    // Searches run unprepared: a cached generic plan cannot see the words, and the right plan (GIN index for
    // rare words, deadline order with early exit for broad ones) depends on them.
    const page = (where: Statement.Fragment, limit: number) =>
      sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE ${where} ORDER BY t.deadline_sort, t.id LIMIT ${limit}`.unprepared.pipe(
        Effect.flatMap(decodeRows)
      )

    // Relevance in two exact tiers: tenders whose title has every word, then those matching elsewhere
    // (lot names, buyer, codes); nearest deadline first within a tier. The second tier runs only when the
    // first leaves room, so broad words stop after one early-exit index scan. When neither finds anything,
    // titles and buyers with similar words (pg_trgm word similarity) answer, marked approximate.
    const search = Effect.fn("PgTenderStore.search")(function*(query: SearchQuery) {
      const text = textQuery(sql, query.tokens)
      if (text === undefined) return { tenders: yield* page(searchConditions(sql, query, []), query.limit), approximate: false }
      const inTitle = yield* page(searchConditions(sql, query, [sql`t.title_vec @@ ${text}`]), query.limit)
      if (inTitle.length >= query.limit) return { tenders: inTitle, approximate: false }
      const elsewhere = yield* page(
        searchConditions(sql, query, [sql`t.search_vec @@ ${text}`, sql`NOT (t.title_vec @@ ${text})`]),
        query.limit - inTitle.length
      )
      if (inTitle.length + elsewhere.length > 0) return { tenders: [...inTitle, ...elsewhere], approximate: false }
      const words = query.tokens.map((token) => token.text).join(" ")
      const similar = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
        WHERE ${searchConditions(sql, query, [sql`(${words} <% lower(t.title) OR ${words} <% lower(t.buyer))`])}
        ORDER BY greatest(word_similarity(${words}, lower(t.title)), coalesce(word_similarity(${words}, lower(t.buyer)), 0)) DESC,
          t.deadline_sort, t.id
        LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRows))
      return { tenders: similar, approximate: similar.length > 0 }
    }, Effect.orDie)

    const count = Effect.fn("PgTenderStore.count")(function*(query: SearchQuery) {
      const text = textQuery(sql, query.tokens)
      const where = searchConditions(sql, query, text === undefined ? [] : [sql`t.search_vec @@ ${text}`])
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders t WHERE ${where}`.unprepared
      return rows[0]?.n ?? 0
    }, Effect.orDie)

    const get = Effect.fn("PgTenderStore.get")(function*(id: string) {
      const rows = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE t.id = ${id}`
      const decoded: ReadonlyArray<StoredTender> = yield* decodeRows(rows)
      return Option.fromNullishOr(decoded[0])
    }, Effect.orDie)

    const size = sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders`.pipe(
      Effect.map((rows) => rows[0]?.n ?? 0),
      Effect.orDie
    )

    const refreshStatistics = sql`ANALYZE tenders`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgTenderStore.refreshStatistics"))

    return TenderStore.of({ upsert: upsertBatch, search, count, get, size, refreshStatistics })
  })
)
