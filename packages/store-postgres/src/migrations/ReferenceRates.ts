import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The reference rates imported from their publishers, per quarter and currency with provenance (publisher, the
 * publication's day, the URL or file it came from, when it was read), and the slot of their quarterly refresh: one
 * row leased like a source's schedule, so one replica of a fleet refreshes.
 */
export const referenceRates = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE reference_rates (
    quarter text NOT NULL CHECK (quarter ~ '^[0-9]{4}-Q[1-4]$'),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    per_eur numeric NOT NULL CHECK (per_eur > 0),
    publisher text NOT NULL,
    published_on date NOT NULL,
    origin text NOT NULL,
    fetched_at timestamptz NOT NULL,
    PRIMARY KEY (quarter, currency)
  )`
  yield* sql`CREATE TABLE reference_rates_schedule (
    id smallint PRIMARY KEY CHECK (id = 1),
    next_run_at timestamptz NOT NULL,
    lease_owner text,
    lease_expires_at timestamptz
  )`
})
