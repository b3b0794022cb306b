import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The notices of each tender's procedure, tender aliases, and the tenders' change events. */
export const notices = Effect.gen(function* () {
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

/** The sources' ingest schedule (a next run and a lease per source), their cursors, each run's owner and summary. */
export const schedule = Effect.gen(function* () {
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

/**
 * The index on a tender's source and native id: no statement looks tenders up by native id (notices are linked by
 * procedure key, tenders read by id or alias), and every write paid for it (third session of issue 10).
 */
export const unusedNativeIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS tenders_source_native_idx`
})

/**
 * The indexes the sources' health reads each source's last success, last failure and unfinished run from
 * (PgSourceStatusStore): a few index entries per source, where it grouped the whole run history (about 22,000 runs
 * a year at the default intervals, read at every `/health` and every search the result cache did not answer).
 */
export const runOutcomes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX source_runs_outcome_idx ON source_runs (source, ok, finished_at)`
  yield* sql`CREATE INDEX source_runs_unfinished_idx ON source_runs (source, started_at) WHERE finished_at IS NULL`
})
