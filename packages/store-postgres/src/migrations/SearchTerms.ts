import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Search terms come from the text analysis in TypeScript (core SearchText, `@tenders/search-text`): one weighted
 * vector per tender, rebuilt at start when the analysis changes (SearchIndex.ts). The database's own stemming,
 * the title-only vector and the watchlists' stored tokens go.
 */
export const searchTerms = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE search_index_state (id integer PRIMARY KEY CHECK (id = 1), version text NOT NULL)`
  yield* sql`INSERT INTO search_index_state (id, version) VALUES (1, '')`
  yield* sql`ALTER TABLE tenders DROP COLUMN title_vec`
  yield* sql`DROP FUNCTION tenders_text_vector(text, text, text, text, "char")`
  yield* sql`DROP TRIGGER watchlists_version ON watchlists`
  yield* sql`ALTER TABLE watchlists DROP COLUMN match_tokens`
  yield* sql`CREATE TRIGGER watchlists_version
    AFTER INSERT OR DELETE OR UPDATE OF filters, account_id, created_at
    ON watchlists FOR EACH STATEMENT EXECUTE FUNCTION bump_watchlist_version()`
  // The words of the stored tenders as written, which a misspelt query word is corrected to (trigram similarity).
  yield* sql`CREATE TABLE search_vocabulary (word text PRIMARY KEY)`
  yield* sql`CREATE INDEX search_vocabulary_trgm_idx ON search_vocabulary USING gin (word gin_trgm_ops)`
})

/** Has every tender's terms rebuilt at the next start (SearchIndex.ts: the stored version no longer matches). */
const rebuildTermsAtStart = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`UPDATE search_index_state SET version = '' WHERE id = 1`
)

/**
 * The title's terms in a column of their own: the first candidate tier (every word in the title) needs the planner's
 * own estimate of how many titles match, which a weight-restricted query on the whole vector does not give (it
 * scanned the deadline index through every open tender when no title matched).
 */
export const titleTerms = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tenders ADD COLUMN title_vec tsvector NOT NULL DEFAULT ''::tsvector`
  yield* sql`CREATE INDEX tenders_title_vec_idx ON tenders USING gin (title_vec) WHERE status IN ('open', 'amended')`
  yield* sql`ALTER TABLE tenders ALTER COLUMN title_vec SET STATISTICS 2000`
  yield* rebuildTermsAtStart // the rebuild at start fills the column
})

/**
 * Each stored lexeme is tagged with its field ("Aroad": SearchSql.ts) instead of a tsvector weight, so the planner's
 * statistics count a term in each field; the title-only vector, which served the same end for the title, goes. The
 * trigram indexes on titles and buyers served the search before issue 10 and nothing queries them now. The text
 * index's pending list (new entries every search reads through until they are merged) is bounded at 512 kB instead
 * of 4 MB. The terms are rebuilt at start in the new form (SearchIndex.ts).
 */
export const fieldLexemes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tenders DROP COLUMN title_vec`
  yield* sql`DROP INDEX tenders_title_trgm_idx`
  yield* sql`DROP INDEX tenders_buyer_trgm_idx`
  yield* sql`ALTER INDEX tenders_search_vec_idx SET (gin_pending_list_limit = 512)`
  yield* rebuildTermsAtStart
})

/**
 * Each tender's vector also holds the day and week of its deadline ("Y2026-12-01", "W2917"; SearchSql.ts
 * `deadlineLexemes`), so the GIN index finds the tenders of a text due in the next days (SearchCost.ts `spanOf`).
 * The terms are rebuilt at start.
 */
export const deadlineDays = rebuildTermsAtStart

/**
 * The deadline's day and week also of the tender's country ("YPL2026-12-01", "WPL2917"; SearchSql.ts
 * `deadlineLexemes`): a search filtered by countries asks the GIN index for the tenders of a text due in the next days
 * in those countries only, instead of reading every country's from the heap to drop them. The terms are rebuilt at
 * start.
 */
export const deadlineDaysByCountry = rebuildTermsAtStart
