import { cpvTermPrefix, type DocumentTerms, type SearchText, type TenderRecord } from "@tenders/core"
import type { PgClient } from "@effect/sql-pg"
import { deadlineLexemes, fieldLexeme, lexeme } from "./SearchSql.ts"

/**
 * The tsvector text of a tender: its terms (core SearchText.documentTerms), each tagged with its best field, and the
 * day and week of its deadline, also of its country's (`deadlineLexemes`).
 */
export const termsVector = (terms: DocumentTerms, deadline: string | null, country: string | null): string =>
  [
    ...[...terms].map(([term, field]) => lexeme(fieldLexeme(term, field))),
    ...(deadline === null ? [] : deadlineLexemes(Date.parse(deadline), country).map(lexeme))
  ].join(" ")

/** The CPV prefixes a tender is filed under: its `cpv:` terms (own codes, and those of the crosswalk). */
export const cpvPrefixesOfTerms = (terms: DocumentTerms): ReadonlyArray<string> =>
  [...terms.keys()].filter((term) => term.startsWith(cpvTermPrefix)).map((term) => term.slice(cpvTermPrefix.length))

/** A tender's index columns: its vector, the CPV prefixes it is filed under, and the analysis they were made with. */
const indexColumns = (text: SearchText["Service"], record: TenderRecord) => {
  const terms = text.documentTerms(record)
  return {
    terms: termsVector(terms, record.deadline, record.country),
    cpv_prefixes: cpvPrefixesOfTerms(terms),
    terms_version: text.version
  }
}

const toInsertRow = (text: SearchText["Service"], { record, procedureKey }: TenderWrite) => ({
  doc: record,
  procedure_key: procedureKey,
  ...indexColumns(text, record)
})

/** A tender to write, with the key linking the notices of its procedure. */
export interface TenderWrite {
  readonly record: TenderRecord
  readonly procedureKey: string
}

/** A tender row as the INSERT of `insertTenders` reads it (computed in TypeScript: terms, CPV prefixes). */
export type InsertRow = ReturnType<typeof toInsertRow>

/** The index rows of tenders to write (the analysis is done here, before the statement). */
export const insertRows = (text: SearchText["Service"], rows: ReadonlyArray<TenderWrite>): ReadonlyArray<InsertRow> =>
  rows.map((row) => toInsertRow(text, row))

/**
 * The statement that inserts or updates tenders by id with their index terms; a row whose content hash is unchanged
 * is left alone and not returned. Rows must have distinct ids.
 */
const insertTenders = (sql: PgClient.PgClient, rows: ReadonlyArray<InsertRow>, now: string) =>
  sql`INSERT INTO tenders AS t (id, source, native_id, title, buyer, country, region, budget, currency, deadline,
          published_at, status, url, cpv_codes, okpd2_codes, lots, docs_url, cpv_prefixes, search_vec,
          terms_version, content_hash, procedure_key, created_at, updated_at)
        SELECT r.doc->>'id', r.doc->>'source', r.doc->>'nativeId', r.doc->>'title', r.doc->>'buyer', r.doc->>'country',
          r.doc->>'region', (r.doc->>'budget')::numeric, r.doc->>'currency', (r.doc->>'deadline')::timestamptz,
          (r.doc->>'publishedAt')::timestamptz, r.doc->>'status', r.doc->>'url',
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'cpvCodes')),
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'okpd2Codes')),
          r.doc->'lots',
          ARRAY(SELECT jsonb_array_elements_text(r.doc->'docsUrl')),
          r.cpv_prefixes,
          r.terms::tsvector,
          r.terms_version,
          md5(r.doc::text), r.procedure_key, ${now}::timestamptz, ${now}::timestamptz
        FROM jsonb_to_recordset(${sql.json(rows)})
          AS r(doc jsonb, terms text, cpv_prefixes text[], terms_version text, procedure_key text)
        ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, native_id = EXCLUDED.native_id, title = EXCLUDED.title,
          buyer = EXCLUDED.buyer, country = EXCLUDED.country, region = EXCLUDED.region, budget = EXCLUDED.budget,
          currency = EXCLUDED.currency, deadline = EXCLUDED.deadline, published_at = EXCLUDED.published_at,
          status = EXCLUDED.status, url = EXCLUDED.url, cpv_codes = EXCLUDED.cpv_codes,
          okpd2_codes = EXCLUDED.okpd2_codes, lots = EXCLUDED.lots, docs_url = EXCLUDED.docs_url,
          cpv_prefixes = EXCLUDED.cpv_prefixes, search_vec = EXCLUDED.search_vec, terms_version = EXCLUDED.terms_version,
          content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at
        WHERE t.content_hash <> EXCLUDED.content_hash
        RETURNING t.id, (xmax = 0) AS inserted`

/**
 * Inserts or updates tenders by id with their index terms; a row whose content hash is unchanged is left alone and
 * not returned. Rows must have distinct ids.
 */
export const writeTenders = (
  sql: PgClient.PgClient,
  text: SearchText["Service"],
  rows: ReadonlyArray<TenderWrite>,
  now: string
) => sql<{ id: string; inserted: boolean }>`${insertTenders(sql, insertRows(text, rows), now)}`

/**
 * One statement: `writeTenders`, a `new` or `updated` event for each tender written, and, when any was, the words
 * of the batch in the vocabulary (`rememberWords`). Returns the tenders written.
 */
export const writeTendersWithEvents = (
  sql: PgClient.PgClient,
  rows: ReadonlyArray<InsertRow>,
  words: ReadonlyArray<string>,
  now: string
) =>
  sql<{ id: string; inserted: boolean }>`WITH written AS (${insertTenders(sql, rows, now)}),
      events AS (INSERT INTO tender_events (tender_id, change, notice_key, created_at)
        SELECT w.id, CASE WHEN w.inserted THEN 'new' ELSE 'updated' END, NULL, ${now}::timestamptz FROM written w),
      words AS (INSERT INTO search_vocabulary (word)
        SELECT w FROM jsonb_array_elements_text(${sql.json(words)}) AS w WHERE EXISTS (SELECT 1 FROM written)
        ON CONFLICT (word) DO NOTHING)
    SELECT id, inserted FROM written`

/** Rewrites the index terms of stored tenders (after the analysis or its data changed). */
export const rewriteTerms = (
  sql: PgClient.PgClient,
  text: SearchText["Service"],
  records: ReadonlyArray<TenderRecord>
) =>
  sql`UPDATE tenders AS t SET search_vec = r.terms::tsvector, cpv_prefixes = r.cpv_prefixes,
      terms_version = r.terms_version
    FROM jsonb_to_recordset(${sql.json(records.map((record) => ({ id: record.id, ...indexColumns(text, record) })))})
      AS r(id text, terms text, cpv_prefixes text[], terms_version text)
    WHERE t.id = r.id`

/** Adds the words of tenders to the vocabulary spelling corrections read from (SearchText.documentWords). */
export const rememberWords = (
  sql: PgClient.PgClient,
  text: SearchText["Service"],
  records: ReadonlyArray<TenderRecord>
) => {
  const words = batchWords(text, records)
  return sql`INSERT INTO search_vocabulary (word)
    SELECT w FROM jsonb_array_elements_text(${sql.json(words)}) AS w ON CONFLICT (word) DO NOTHING`
}

/** The distinct vocabulary words of tenders (SearchText.documentWords). */
export const batchWords = (text: SearchText["Service"], records: ReadonlyArray<TenderRecord>) => [
  ...new Set(records.flatMap((record) => text.documentWords(record)))
]
