import { Account, SignInStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { hashSecret } from "./Secrets.ts"
import { accountColumns, at } from "./Sql.ts"

type NewLink = Parameters<SignInStore["Service"]["saveLink"]>[0]
type NewSession = Parameters<SignInStore["Service"]["createSession"]>[0]

/** How long an expired link is kept: past every rate-limit window, then the next saved link deletes it. */
const keepExpiredLinks = Duration.days(1)

const TokenAt = Schema.Struct({ hash: Schema.String, now: Schema.String })
const LinkCounts = Schema.Struct({ address: Schema.Int, client: Schema.Int })
const LinkEmail = Schema.Struct({ email: Schema.String })

/** SignInStore on PostgreSQL: links and sessions by the SHA-256 of their token (Secrets.ts). */
export const PgSignInStore = Layer.effect(
  SignInStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    const saveLink = Effect.fn("PgSignInStore.saveLink")(function* (link: NewLink) {
      const cutoff = DateTime.subtractDuration(link.createdAt, keepExpiredLinks)
      yield* sql`WITH expired AS (DELETE FROM sign_in_links WHERE expires_at < ${at(sql, cutoff)})
        INSERT INTO sign_in_links (token_hash, email, client, created_at, expires_at)
        VALUES (${hashSecret(link.token)}, ${link.email}, ${link.client}, ${at(sql, link.createdAt)},
          ${at(sql, link.expiresAt)})`
    }, Effect.orDie)

    const counts = SqlSchema.findOne({
      Request: Schema.Struct({ email: Schema.String, client: Schema.String, since: Schema.String }),
      Result: LinkCounts,
      execute: ({ email, client, since }) => sql`SELECT
          (SELECT count(*) FROM sign_in_links
            WHERE email = ${email} AND created_at >= ${since}::timestamptz)::int AS address,
          (SELECT count(*) FROM sign_in_links
            WHERE client = ${client} AND created_at >= ${since}::timestamptz)::int AS client`
    })
    const linksSince = Effect.fn("PgSignInStore.linksSince")(
      (email: string, client: string, since: DateTime.Utc) =>
        counts({ email, client, since: DateTime.formatIso(since) }),
      Effect.orDie
    )

    const usableLink = SqlSchema.findOneOption({
      Request: TokenAt,
      Result: LinkEmail,
      execute: ({ hash, now }) => sql`SELECT email FROM sign_in_links
        WHERE token_hash = ${hash} AND used_at IS NULL AND expires_at > ${now}::timestamptz`
    })
    const peekLink = Effect.fn("PgSignInStore.peekLink")(function* (token: string, now: DateTime.Utc) {
      const found = yield* usableLink({ hash: hashSecret(token), now: DateTime.formatIso(now) })
      return found.pipe(Option.map((row) => row.email))
    }, Effect.orDie)

    // One statement: of two concurrent uses, the second waits for the first's row lock, then finds the link used.
    const markUsed = SqlSchema.findOneOption({
      Request: TokenAt,
      Result: LinkEmail,
      execute: ({ hash, now }) => sql`UPDATE sign_in_links SET used_at = ${now}::timestamptz
        WHERE token_hash = ${hash} AND used_at IS NULL AND expires_at > ${now}::timestamptz
        RETURNING email`
    })
    const useLink = Effect.fn("PgSignInStore.useLink")(function* (token: string, now: DateTime.Utc) {
      const used = yield* markUsed({ hash: hashSecret(token), now: DateTime.formatIso(now) })
      return used.pipe(Option.map((row) => row.email))
    }, Effect.orDie)

    const createSession = Effect.fn("PgSignInStore.createSession")(function* (session: NewSession) {
      yield* sql`WITH expired AS (
          DELETE FROM sessions WHERE account_id = ${session.accountId}::uuid AND expires_at <= ${at(sql, session.createdAt)}
        )
        INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
        VALUES (${hashSecret(session.token)}, ${session.accountId}::uuid, ${at(sql, session.createdAt)},
          ${at(sql, session.expiresAt)})`
    }, Effect.orDie)

    const bySession = SqlSchema.findOneOption({
      Request: TokenAt,
      Result: Account,
      execute: ({ hash, now }) => sql`SELECT ${sql.literal(accountColumns)}
        FROM sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.token_hash = ${hash} AND s.expires_at > ${now}::timestamptz`
    })
    const sessionAccount = Effect.fn("PgSignInStore.sessionAccount")(
      (token: string, now: DateTime.Utc) => bySession({ hash: hashSecret(token), now: DateTime.formatIso(now) }),
      Effect.orDie
    )

    const endSession = Effect.fn("PgSignInStore.endSession")(function* (token: string) {
      yield* sql`DELETE FROM sessions WHERE token_hash = ${hashSecret(token)}`
    }, Effect.orDie)

    return SignInStore.of({ saveLink, linksSince, peekLink, useLink, createSession, sessionAccount, endSession })
  })
)
