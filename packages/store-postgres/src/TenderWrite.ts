import { splitByScript, tenderCpvPrefixes, type TenderRecord, tenderText } from "@tenders/core"
import type { PgClient } from "@effect/sql-pg"

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

const toInsertRow = ({ record, procedureKey }: TenderWrite) => {
  const text = tenderText(record)
  return {
    doc: record,
    procedure_key: procedureKey,
    ...vectorParts("a", text.title),
    ...vectorParts("b", text.lots),
    ...vectorParts("c", text.parties),
    d_all: text.codes.toLowerCase(),
    cpv_prefixes: tenderCpvPrefixes(record)
  }
}

/** A tender to write, with the key linking the notices of its procedure. */
export interface TenderWrite {
  readonly record: TenderRecord
  readonly procedureKey: string
}

/**
 * Inserts or updates tenders by id with their search vectors; a row whose content hash is unchanged is left
 * alone and not returned. Rows must have distinct ids.
 */
export const writeTenders = (sql: PgClient.PgClient, rows: ReadonlyArray<TenderWrite>, now: string) =>
  sql<{ id: string; inserted: boolean }>`
        INSERT INTO tenders AS t (id, source, native_id, title, buyer, country, region, budget, currency, deadline,
          published_at, status, url, cpv_codes, okpd2_codes, lots, docs_url, cpv_prefixes, title_vec, search_vec,
          content_hash, procedure_key, created_at, updated_at)
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
          md5(r.doc::text), r.procedure_key, ${now}::timestamptz, ${now}::timestamptz
        FROM jsonb_to_recordset(${sql.json(rows.map(toInsertRow))})
          AS r(doc jsonb, a_latin text, a_cyr text, a_arm text, a_all text,
          b_latin text, b_cyr text, b_arm text, b_all text, c_latin text, c_cyr text, c_arm text, c_all text,
          d_all text, cpv_prefixes text[], procedure_key text),
          LATERAL (SELECT tenders_text_vector(r.a_latin, r.a_cyr, r.a_arm, r.a_all, 'A') AS title_vec) v
        ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, native_id = EXCLUDED.native_id, title = EXCLUDED.title,
          buyer = EXCLUDED.buyer, country = EXCLUDED.country, region = EXCLUDED.region, budget = EXCLUDED.budget,
          currency = EXCLUDED.currency, deadline = EXCLUDED.deadline, published_at = EXCLUDED.published_at,
          status = EXCLUDED.status, url = EXCLUDED.url, cpv_codes = EXCLUDED.cpv_codes,
          okpd2_codes = EXCLUDED.okpd2_codes, lots = EXCLUDED.lots, docs_url = EXCLUDED.docs_url,
          cpv_prefixes = EXCLUDED.cpv_prefixes, title_vec = EXCLUDED.title_vec, search_vec = EXCLUDED.search_vec,
          content_hash = EXCLUDED.content_hash, updated_at = EXCLUDED.updated_at
        WHERE t.content_hash <> EXCLUDED.content_hash
        RETURNING t.id, (xmax = 0) AS inserted`
