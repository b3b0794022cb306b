import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The dashboard's e-mail sign-in: one-time links and sessions, their secrets stored hashed (Secrets.ts). Links are
 * counted by address and by client for the rate limit, and deleted a day after they expire (PgSignInStore.ts); a
 * session goes with its account. Keys keep when they last authenticated a call (to the minute), and the dashboard
 * lists one account's keys.
 */
export const signIn = Effect.gen(function* () {
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
