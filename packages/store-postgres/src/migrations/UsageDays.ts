import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The dashboard's chart of calls per day: each counted call also counts on its UTC day, in the statement that counts
 * it in its month (PgAccountStore `consumeCall`); calls counted before this migration have no day. One account's
 * deliveries are listed newest first (the dashboard), by an index rather than a scan of the whole outbox.
 */
export const usageDays = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE usage_days (
    account_id uuid NOT NULL REFERENCES accounts (id),
    day date NOT NULL,
    calls integer NOT NULL CHECK (calls > 0),
    PRIMARY KEY (account_id, day)
  )`
  yield* sql`CREATE INDEX deliveries_account_idx ON deliveries (account_id, id)`
})
