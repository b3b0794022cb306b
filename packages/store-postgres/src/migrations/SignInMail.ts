import { parseEmailAddress } from "@tenders/core"
import { Effect, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A sign-in link's mail is queued with the link and sent in the background (PgSignInStore.ts), so that the answer to
 * the form never waits for the mail (it told which addresses have an account). Its URL, which holds the link's secret,
 * is kept only until the mail is sent or given up. The limits on links moved to the rate-limit buckets, so links are
 * no longer counted by address or client.
 */
export const signInMail = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS sign_in_links_email_idx`
  yield* sql`ALTER TABLE sign_in_links DROP COLUMN client`
  yield* sql`ALTER TABLE sign_in_links
    ADD COLUMN mail_url text,
    ADD COLUMN mail_language text,
    ADD COLUMN mail_state text NOT NULL DEFAULT 'none' CHECK (mail_state IN ('none', 'pending', 'sent', 'failed')),
    ADD COLUMN mail_attempts int NOT NULL DEFAULT 0,
    ADD COLUMN mail_due_at timestamptz,
    ADD COLUMN mail_lease_until timestamptz,
    ADD COLUMN mail_error text`
  yield* sql`CREATE INDEX sign_in_links_mail_due_idx ON sign_in_links (mail_due_at) WHERE mail_state = 'pending'`
})

/**
 * Rate-limit buckets (PgRateLimiterStore.ts, the store of Effect's RateLimiter): one row per key, changed under its
 * row lock, so that every replica on this database counts the same uses. `expires_at` says when a row holds nothing
 * a new one would not (its bucket is full again, its window over): such rows are deleted as new keys come.
 */
export const rateLimits = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE rate_limits (
    key text PRIMARY KEY,
    tokens double precision NOT NULL,
    stamp_ms bigint NOT NULL,
    expires_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at)`
})

const AccountEmail = Schema.Struct({ id: Schema.String, email: Schema.String })

/**
 * Account addresses in the normal form of core's address rule (lower case, IDN domains as A-labels), as every lookup
 * now asks for them. An address the rule refuses, or whose normal form another account has, is left as it is: no
 * sign-in reaches it and no mail is sent to it, and an operator can see it with `tenders keys list`.
 */
export const accountEmailForm = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* Schema.decodeUnknownEffect(Schema.Array(AccountEmail))(
    yield* sql`SELECT id::text AS id, email FROM accounts`
  ).pipe(Effect.orDie)
  for (const row of rows) {
    const normal = parseEmailAddress(row.email)
    if (Result.isFailure(normal) || normal.success === row.email) continue
    yield* sql`UPDATE accounts SET email = ${normal.success}
      WHERE id = ${row.id}::uuid AND NOT EXISTS (SELECT 1 FROM accounts b WHERE b.email = ${normal.success})`
  }
})
