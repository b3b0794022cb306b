import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The first schema: tenders (their text vectors and indexes), accounts, API keys, monthly usage, source runs. */
export const initial = Effect.gen(function* () {
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
