import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The OAuth 2.1 authorization server of the MCP endpoint (PgOAuthStore.ts): registered clients, grants (one client's
 * access to one account, listed on the dashboard), one-time authorization codes and rotating tokens, their secrets
 * stored hashed (Secrets.ts). A revoked grant keeps its rows; a grant goes with its account. Expired codes are deleted
 * by the next grant, a grant's expired tokens by its next tokens.
 */
export const oauth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE oauth_clients (
    client_id text PRIMARY KEY,
    client_name text NOT NULL,
    redirect_uris text[] NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE TABLE oauth_grants (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id text NOT NULL,
    client_name text NOT NULL,
    redirect_uri text NOT NULL,
    resource text NOT NULL,
    scope text NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX oauth_grants_account_idx ON oauth_grants (account_id, created_at)`
  yield* sql`CREATE TABLE oauth_codes (
    code_hash text PRIMARY KEY,
    grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    challenge text NOT NULL,
    redirect_uri_given boolean NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
  yield* sql`CREATE INDEX oauth_codes_grant_idx ON oauth_codes (grant_id)`
  yield* sql`CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at)`
  yield* sql`CREATE TABLE oauth_tokens (
    token_hash text PRIMARY KEY,
    grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at timestamptz NOT NULL,
    spent_at timestamptz
  )`
  yield* sql`CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id, expires_at)`
})

/**
 * Registered clients that never got a grant are forgotten after a while (PgOAuthStore `forgetUnusedClients`, at each
 * registration): the registrations by age, and the grants by client, are indexed for it.
 */
export const oauthClientAge = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX oauth_clients_created_idx ON oauth_clients (created_at)`
  yield* sql`CREATE INDEX oauth_grants_client_idx ON oauth_grants (client_id)`
})
