import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { classifications, sourceLabels } from "./migrations/Classifications.ts"
import { oauth, oauthClientAge } from "./migrations/OAuth.ts"
import { accountEmailForm, rateLimits, signInMail } from "./migrations/SignInMail.ts"
import { usageDays } from "./migrations/UsageDays.ts"

const initial = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
  yield* sql`CREATE FUNCTION tenders_text_vector(latin text, cyrillic text, armenian text, unstemmed text,
      weight "char")
    RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT setweight(
        to_tsvector('english', latin) || to_tsvector('russian', cyrillic) ||
        to_tsvector('armenian', armenian) || to_tsvector('simple', unstemmed),
        weight)
    $$`
  yield* sql`CREATE TABLE tenders (
    id text PRIMARY KEY,
    source text NOT NULL,
    native_id text NOT NULL,
    title text NOT NULL,
    buyer text,
    country text,
    region text,
    budget numeric,
    currency text,
    deadline timestamptz,
    deadline_sort timestamptz GENERATED ALWAYS AS (COALESCE(deadline, 'infinity'::timestamptz)) STORED,
    published_at timestamptz,
    status text NOT NULL,
    url text NOT NULL,
    cpv_codes text[] NOT NULL,
    okpd2_codes text[] NOT NULL,
    lots jsonb NOT NULL,
    docs_url text[] NOT NULL,
    cpv_prefixes text[] NOT NULL,
    title_vec tsvector NOT NULL,
    search_vec tsvector NOT NULL,
    content_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  // Search only ever looks at open tenders: partial indexes skip the cancelled and closed ones.
  yield* sql`CREATE INDEX tenders_title_vec_idx ON tenders USING gin (title_vec) WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_search_vec_idx ON tenders USING gin (search_vec) WHERE status IN ('open', 'amended')`
  // A large sample keeps rare words' estimates low enough for the planner to prefer the GIN index.
  yield* sql`ALTER TABLE tenders ALTER COLUMN title_vec SET STATISTICS 2000`
  yield* sql`ALTER TABLE tenders ALTER COLUMN search_vec SET STATISTICS 2000`
  // Open tenders in deadline order, null deadlines last: one range condition, and early exit for broad words.
  yield* sql`CREATE INDEX tenders_open_deadline_idx ON tenders (deadline_sort, id) WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_open_country_idx ON tenders (country, deadline_sort)
    WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_cpv_prefixes_idx ON tenders USING gin (cpv_prefixes)`
  yield* sql`CREATE INDEX tenders_budget_idx ON tenders (currency, budget) WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_title_trgm_idx ON tenders USING gin (lower(title) gin_trgm_ops)
    WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_buyer_trgm_idx ON tenders USING gin (lower(buyer) gin_trgm_ops)
    WHERE status IN ('open', 'amended')`
  yield* sql`CREATE INDEX tenders_source_native_idx ON tenders (source, native_id)`

  yield* sql`CREATE TABLE accounts (
    id uuid PRIMARY KEY,
    email text NOT NULL UNIQUE,
    plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business')),
    monthly_limit integer CHECK (monthly_limit >= 0),
    created_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE TABLE api_keys (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id),
    kind text NOT NULL CHECK (kind IN ('rest', 'mcp')),
    secret_hash text NOT NULL UNIQUE,
    prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
  )`
  yield* sql`CREATE TABLE usage_months (
    account_id uuid NOT NULL REFERENCES accounts (id),
    month text NOT NULL,
    calls integer NOT NULL DEFAULT 0,
    packs integer NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, month)
  )`
  yield* sql`CREATE TABLE source_runs (
    id bigserial PRIMARY KEY,
    source text NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    ok boolean,
    error text
  )`
  yield* sql`CREATE INDEX source_runs_source_idx ON source_runs (source, started_at DESC)`
})

const notices = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tenders ADD COLUMN procedure_key text`
  yield* sql`UPDATE tenders SET procedure_key = native_id`
  yield* sql`CREATE INDEX tenders_procedure_idx ON tenders (source, procedure_key)`
  yield* sql`CREATE TABLE tender_notices (
    notice_key text PRIMARY KEY,
    source text NOT NULL,
    procedure_key text NOT NULL,
    kind text NOT NULL,
    version integer,
    content_hash text NOT NULL,
    notice jsonb NOT NULL,
    received_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX tender_notices_procedure_idx ON tender_notices (source, procedure_key)`
  yield* sql`CREATE TABLE tender_aliases (alias text PRIMARY KEY, tender_id text NOT NULL)`
  yield* sql`CREATE TABLE tender_events (
    id bigserial PRIMARY KEY,
    tender_id text NOT NULL,
    change text NOT NULL,
    notice_key text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX tender_events_tender_idx ON tender_events (tender_id, id)`
})

const schedule = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE source_runs ADD COLUMN owner text`
  yield* sql`ALTER TABLE source_runs ADD COLUMN summary jsonb`
  yield* sql`CREATE TABLE source_cursors (
    source text PRIMARY KEY,
    cursor text NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE TABLE source_schedule (
    source text PRIMARY KEY,
    next_run_at timestamptz NOT NULL,
    lease_owner text,
    lease_expires_at timestamptz
  )`
})

const watchlists = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE watchlists (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id),
    name text NOT NULL,
    filters jsonb NOT NULL,
    email boolean NOT NULL,
    webhook text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX watchlists_account_idx ON watchlists (account_id, created_at)`
})

const alerts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE watchlists ADD COLUMN match_tokens jsonb NOT NULL DEFAULT '[]'::jsonb`
  yield* sql`CREATE TABLE alerts (
    id bigserial PRIMARY KEY,
    watchlist_id uuid NOT NULL REFERENCES watchlists (id) ON DELETE CASCADE,
    account_id uuid NOT NULL,
    tender_id text NOT NULL,
    reason text NOT NULL,
    version text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (watchlist_id, tender_id, reason, version)
  )`
  yield* sql`CREATE INDEX alerts_account_idx ON alerts (account_id)`
  yield* sql`CREATE INDEX alerts_tender_idx ON alerts (tender_id)`
  yield* sql`CREATE TABLE alert_cursor (name text PRIMARY KEY, last_event_id bigint NOT NULL)`
})

const deliveries = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN webhook_secret text`
  yield* sql`ALTER TABLE watchlists ADD COLUMN webhook_disabled_at timestamptz`
  yield* sql`CREATE TABLE deliveries (
    id bigserial PRIMARY KEY,
    channel text NOT NULL CHECK (channel IN ('email', 'webhook')),
    account_id uuid NOT NULL,
    watchlist_id uuid,
    target text NOT NULL,
    webhook_id text,
    payload jsonb NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    lease_until timestamptz,
    last_error text,
    created_at timestamptz NOT NULL,
    delivered_at timestamptz
  )`
  yield* sql`CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'pending'`
})

/** A counter bumped by every statement that changes which watchlists match what (the evaluator's cache key). */
const watchlistVersion = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE watchlist_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`
  yield* sql`INSERT INTO watchlist_version (id, version) VALUES (1, 0)`
  yield* sql.unsafe(`CREATE FUNCTION bump_watchlist_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE watchlist_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`)
  yield* sql`CREATE TRIGGER watchlists_version
    AFTER INSERT OR DELETE OR UPDATE OF filters, match_tokens, account_id, created_at
    ON watchlists FOR EACH STATEMENT EXECUTE FUNCTION bump_watchlist_version()`
})

/**
 * Search terms come from the text analysis in TypeScript (core SearchText, `@tenders/search-text`): one weighted
 * vector per tender, rebuilt at start when the analysis changes (SearchIndex.ts). The database's own stemming,
 * the title-only vector and the watchlists' stored tokens go.
 */
const searchTerms = Effect.gen(function* () {
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
const titleTerms = Effect.gen(function* () {
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
const fieldLexemes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tenders DROP COLUMN title_vec`
  yield* sql`DROP INDEX tenders_title_trgm_idx`
  yield* sql`DROP INDEX tenders_buyer_trgm_idx`
  yield* sql`ALTER INDEX tenders_search_vec_idx SET (gin_pending_list_limit = 512)`
  yield* rebuildTermsAtStart
})

/**
 * Each tender's vector also holds the day and week of its deadline ("Y2026-12-01", "W2917"; SearchSql.ts
 * `deadlineLexemes`), so the GIN index finds the tenders of a text due in the next days (RankedSearch.ts). The terms
 * are rebuilt at start.
 */
const deadlineDays = rebuildTermsAtStart

/**
 * The deadline's day and week also of the tender's country ("YPL2026-12-01", "WPL2917"; SearchSql.ts
 * `deadlineLexemes`): a search filtered by countries asks the GIN index for the tenders of a text due in the next days
 * in those countries only, instead of reading every country's from the heap to drop them. The terms are rebuilt at
 * start.
 */
const deadlineDaysByCountry = rebuildTermsAtStart

/**
 * The index on a tender's source and native id: no statement looks tenders up by native id (notices are linked by
 * procedure key, tenders read by id or alias), and every write paid for it (third session of issue 10).
 */
const unusedNativeIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS tenders_source_native_idx`
})

/**
 * The dashboard's e-mail sign-in: one-time links and sessions, their secrets stored hashed (Secrets.ts). Links are
 * counted by address and by client for the rate limit, and deleted a day after they expire (PgSignInStore.ts); a
 * session goes with its account. Keys keep when they last authenticated a call (to the minute), and the dashboard
 * lists one account's keys.
 */
const signIn = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE sign_in_links (
    token_hash text PRIMARY KEY,
    email text NOT NULL,
    client text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
  yield* sql`CREATE INDEX sign_in_links_email_idx ON sign_in_links (email, created_at)`
  yield* sql`CREATE INDEX sign_in_links_client_idx ON sign_in_links (client, created_at)`
  yield* sql`CREATE INDEX sign_in_links_expires_idx ON sign_in_links (expires_at)`
  yield* sql`CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX sessions_account_idx ON sessions (account_id, expires_at)`
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`
  yield* sql`CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at)`
})

/** Runs the schema migrations once, in order (the migrator locks its table inside a transaction). */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord({
    "1_initial": initial,
    "2_notices": notices,
    "3_schedule": schedule,
    "4_watchlists": watchlists,
    "5_alerts": alerts,
    "6_deliveries": deliveries,
    "7_watchlist_version": watchlistVersion,
    "8_search_terms": searchTerms,
    "9_title_terms": titleTerms,
    "10_field_lexemes": fieldLexemes,
    "11_deadline_days": deadlineDays,
    "12_unused_native_index": unusedNativeIndex,
    "13_sign_in": signIn,
    "14_usage_days": usageDays,
    "15_oauth": oauth,
    "16_oauth_client_age": oauthClientAge,
    "17_sign_in_mail": signInMail,
    "18_rate_limits": rateLimits,
    "19_account_email_form": accountEmailForm,
    "20_classifications": classifications,
    "21_source_labels": sourceLabels,
    "22_deadline_days_by_country": deadlineDaysByCountry
  }),
  table: "tenders_migrations"
})
