import { Account, type AccountId, SignInStore, uiLanguages } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { hashSecret } from "./Secrets.ts"
import { accountColumns, at, expiredRows, utc, UtcInstant } from "./Sql.ts"

type NewLink = Parameters<SignInStore["Service"]["saveLink"]>[0]
type NewSession = Parameters<SignInStore["Service"]["createSession"]>[0]

/** How long an expired link is kept, then the next saved link deletes it. */
const keepExpiredLinks = Duration.days(1)

const TokenAt = Schema.Struct({ hash: Schema.String, now: Schema.String })
const LinkEmail = Schema.Struct({ email: Schema.String })
const MailRow = Schema.Struct({
  id: Schema.String,
  attempts: Schema.Int,
  email: Schema.String,
  url: Schema.String,
  language: Schema.Literals(uiLanguages),
  minutes: Schema.Int,
  expiresAt: UtcInstant
})

/**
 * SignInStore on PostgreSQL: links and sessions by the SHA-256 of their token (Secrets.ts); mails leased like
 * deliveries.
 */
export const PgSignInStore = Layer.effect(
  SignInStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    const saveLink = Effect.fn("PgSignInStore.saveLink")(function* (link: NewLink) {
      const cutoff = DateTime.subtractDuration(link.createdAt, keepExpiredLinks)
      const mail = link.mail
      yield* sql`WITH expired AS (
          DELETE FROM sign_in_links WHERE token_hash IN (${expiredRows(sql, "sign_in_links", at(sql, cutoff))})
        )
        INSERT INTO sign_in_links (token_hash, email, created_at, expires_at, mail_url, mail_language, mail_state,
          mail_due_at)
        VALUES (${hashSecret(link.token)}, ${link.email}, ${at(sql, link.createdAt)}, ${at(sql, link.expiresAt)},
          ${mail?.url ?? null}, ${mail?.language ?? null}, ${mail === undefined ? "none" : "pending"},
          ${at(sql, link.createdAt)})`
    }, Effect.orDie)

    const claimMails = Effect.fn("PgSignInStore.claimMails")(function* (
      now: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) {
      yield* sql`UPDATE sign_in_links
        SET mail_state = 'failed', mail_url = NULL, mail_lease_until = NULL,
          mail_error = 'the link expired before its mail could be sent'
        WHERE mail_state = 'pending' AND mail_due_at <= ${at(sql, now)} AND expires_at <= ${at(sql, now)}`
      const rows = yield* sql`UPDATE sign_in_links l
        SET mail_lease_until = ${at(sql, leaseUntil)}, mail_attempts = l.mail_attempts + 1
        FROM (SELECT token_hash FROM sign_in_links
              WHERE mail_state = 'pending' AND mail_due_at <= ${at(sql, now)}
                AND (mail_lease_until IS NULL OR mail_lease_until <= ${at(sql, now)})
              ORDER BY mail_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE l.token_hash = due.token_hash
        RETURNING l.token_hash AS id, l.mail_attempts AS attempts, l.email, l.mail_url AS url,
          l.mail_language AS language,
          round(extract(epoch FROM l.expires_at - l.created_at) / 60)::int AS minutes,
          ${sql.literal(utc("l.expires_at"))} AS "expiresAt"`
      const decoded = yield* Schema.decodeUnknownEffect(Schema.Array(MailRow))(rows)
      return decoded.map((row) => ({
        id: row.id,
        attempts: row.attempts,
        expiresAt: row.expiresAt,
        message: { to: row.email, url: row.url, language: row.language, minutes: row.minutes }
      }))
    }, Effect.orDie)

    const markMailSent = Effect.fn("PgSignInStore.markMailSent")(function* (id: string) {
      yield* sql`UPDATE sign_in_links SET mail_state = 'sent', mail_url = NULL, mail_lease_until = NULL,
          mail_error = NULL
        WHERE token_hash = ${id}`
    }, Effect.orDie)

    const rescheduleMail = Effect.fn("PgSignInStore.rescheduleMail")(function* (
      id: string,
      next: DateTime.Utc,
      error: string
    ) {
      yield* sql`UPDATE sign_in_links SET mail_due_at = ${at(sql, next)}, mail_lease_until = NULL,
          mail_error = ${error}
        WHERE token_hash = ${id} AND mail_state = 'pending'`
    }, Effect.orDie)

    const dropMail = Effect.fn("PgSignInStore.dropMail")(function* (id: string, error: string) {
      yield* sql`UPDATE sign_in_links SET mail_state = 'failed', mail_url = NULL, mail_lease_until = NULL,
          mail_error = ${error}
        WHERE token_hash = ${id}`
    }, Effect.orDie)

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
      const createdAt = at(sql, session.createdAt)
      // Expired sessions go, of any account (Sql.ts `expiredRows`): an expired session is as good as unknown.
      yield* sql`WITH expired AS (
          DELETE FROM sessions WHERE token_hash IN (${expiredRows(sql, "sessions", createdAt)})
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

    const endSessions = Effect.fn("PgSignInStore.endSessions")(function* (accountId: AccountId) {
      const ended = yield* sql`DELETE FROM sessions WHERE account_id = ${accountId}::uuid RETURNING token_hash`
      return ended.length
    }, Effect.orDie)

    return SignInStore.of({
      saveLink,
      claimMails,
      markMailSent,
      rescheduleMail,
      dropMail,
      peekLink,
      useLink,
      createSession,
      sessionAccount,
      endSession,
      endSessions
    })
  })
)
