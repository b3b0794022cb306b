import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Watchlists: an account's saved filters, delivered by e-mail or webhook. */
export const watchlists = Effect.gen(function* () {
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

/** Alerts: a watchlist's tenders, one per reason and version, and the cursor of the tender events read. */
export const alerts = Effect.gen(function* () {
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

/** The outbox of e-mails and webhook calls (retried until delivered or failed), and the accounts' webhook secrets. */
export const deliveries = Effect.gen(function* () {
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
export const watchlistVersion = Effect.gen(function* () {
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
 * Each alert keeps its tender's deadline (`deadline_sort`, as the tender's), so that an account's open alerts are
 * read from now on in deadline order through one index (PgAlertStore `open`), not by joining every alert the account
 * ever had, or every open tender, and sorting. The evaluator writes it with each alert and brings it up to date for
 * the tenders of every batch of events it reads (a tender whose deadline changed has an event). An alert whose
 * tender is gone has `-infinity`: it is never open.
 */
export const alertDeadlines = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE alerts ADD COLUMN deadline_sort timestamptz`
  yield* sql`UPDATE alerts a SET deadline_sort = COALESCE(
    (SELECT t.deadline_sort FROM tenders t WHERE t.id = a.tender_id), '-infinity')`
  yield* sql`ALTER TABLE alerts ALTER COLUMN deadline_sort SET NOT NULL`
  yield* sql`CREATE INDEX alerts_account_deadline_idx ON alerts (account_id, deadline_sort)`
  yield* sql`DROP INDEX alerts_account_idx`
})
