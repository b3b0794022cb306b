import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Rows nobody can use any more are deleted whoever's they are, each write looking only at such rows:
 * - expired dashboard sessions and OAuth tokens: a new session deletes expired sessions, a new token pair expired
 *   tokens (PgSignInStore.ts, PgOAuthStore.ts). Before, only the same account's or grant's, so those of an account that
 *   never signed in again, or a grant never refreshed, stayed for ever. Both tables are indexed by expiry for it;
 * - registered OAuth clients never granted anything (`forgetUnusedClients`, at each registration): a client notes when
 *   it was first granted, so the registration looks at the clients never granted only (a partial index), not at every
 *   old client and its grants.
 */
export const unusableRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX sessions_expires_idx ON sessions (expires_at)`
  yield* sql`CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at)`
  yield* sql`ALTER TABLE oauth_clients ADD COLUMN first_granted_at timestamptz`
  yield* sql`UPDATE oauth_clients c SET first_granted_at = (
      SELECT min(g.created_at) FROM oauth_grants g WHERE g.client_id = c.client_id
    )`
  yield* sql`DROP INDEX oauth_clients_created_idx`
  yield* sql`CREATE INDEX oauth_clients_never_granted_idx ON oauth_clients (created_at) WHERE first_granted_at IS NULL`
})
