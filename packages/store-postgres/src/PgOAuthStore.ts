import {
  Account,
  type AccountId,
  GrantId,
  type GrantRequest,
  OAuthStore,
  type OAuthClient,
  type TokenPair
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { hashSecret } from "./Secrets.ts"
import { accountColumns, at, expiredRows, rowsToTidy, utc, UtcInstant } from "./Sql.ts"

type Service = OAuthStore["Service"]
type NewCode = Parameters<Service["createGrant"]>[1]
type Redemption = Effect.Success<ReturnType<Service["redeemCode"]>>
type Rotation = Effect.Success<ReturnType<Service["rotateRefresh"]>>

const SecretAt = Schema.Struct({ hash: Schema.String, now: Schema.String })
/** A token of a client, at an instant. */
const ClientTokenAt = Schema.Struct({ hash: Schema.String, clientId: Schema.String, now: Schema.String })
/** A refresh token to spend and the next pair's hashes and expiries. */
const Rotate = Schema.Struct({
  ...ClientTokenAt.fields,
  access: Schema.String,
  accessExpiresAt: Schema.String,
  refresh: Schema.String,
  refreshExpiresAt: Schema.String
})
const Found = Schema.Struct({ id: Schema.String })

const ClientRow = Schema.Struct({
  clientId: Schema.String,
  clientName: Schema.String,
  redirectUris: Schema.Array(Schema.String),
  createdAt: UtcInstant
})
const CodeGrantRow = Schema.Struct({
  grantId: GrantId,
  clientId: Schema.String,
  redirectUri: Schema.String,
  resource: Schema.String,
  scope: Schema.String,
  codeChallenge: Schema.String,
  redirectUriGiven: Schema.Boolean
})
const RotatedRow = Schema.Struct({ resource: Schema.String, scope: Schema.String })
const AccessRow = Schema.Struct({ ...Account.fields, resource: Schema.String, clientId: Schema.String })
const GrantRow = Schema.Struct({
  grantId: GrantId,
  clientId: Schema.String,
  clientName: Schema.String,
  redirectUri: Schema.String,
  createdAt: UtcInstant,
  lastUsedAt: Schema.NullOr(UtcInstant)
})

const iso = DateTime.formatIso

/**
 * OAuthStore on PostgreSQL: codes and tokens by their SHA-256 (Secrets.ts). A code or refresh token is spent by one
 * conditional UPDATE: of two concurrent uses the second waits for the first's row lock, then finds it spent.
 */
export const PgOAuthStore = Layer.effect(
  OAuthStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    const saveClient = Effect.fn("PgOAuthStore.saveClient")(function* (client: OAuthClient) {
      yield* sql`INSERT INTO oauth_clients (client_id, client_name, redirect_uris, created_at)
        VALUES (${client.clientId}, ${client.clientName},
          ARRAY(SELECT jsonb_array_elements_text(${sql.json(client.redirectUris)})), ${at(sql, client.createdAt)})
        ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name,
          redirect_uris = EXCLUDED.redirect_uris, created_at = EXCLUDED.created_at`
    }, Effect.orDie)

    const forgetUnusedClients = Effect.fn("PgOAuthStore.forgetUnusedClients")(function* (before: DateTime.Utc) {
      // Only the clients never granted are looked at (a partial index), up to 1,000, none another replica holds.
      const never = sql`first_granted_at IS NULL AND created_at < ${at(sql, before)}`
      const rows = yield* sql`DELETE FROM oauth_clients WHERE client_id IN (${rowsToTidy(sql, "oauth_clients", never)})
        RETURNING 1`
      return rows.length
    }, Effect.orDie)

    const clientById = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: ClientRow,
      execute: (clientId) => sql`SELECT client_id AS "clientId", client_name AS "clientName",
          redirect_uris AS "redirectUris", ${sql.literal(utc("created_at"))} AS "createdAt"
        FROM oauth_clients WHERE client_id = ${clientId}`
    })
    const findClient = Effect.fn("PgOAuthStore.findClient")((clientId: string) => clientById(clientId), Effect.orDie)

    // The grant is last used at its creation; expired codes (of any grant) go, as an expired code is unknown; the
    // client notes when it was first granted (it is no longer forgotten).
    const createGrant = Effect.fn("PgOAuthStore.createGrant")(function* (grant: GrantRequest, code: NewCode) {
      const id = GrantId.make(crypto.randomUUID())
      const created = at(sql, grant.createdAt)
      yield* sql`WITH expired AS (
          DELETE FROM oauth_codes WHERE code_hash IN (${expiredRows(sql, "oauth_codes", created)})
        ),
        granted AS (
          UPDATE oauth_clients SET first_granted_at = ${created}
          WHERE client_id = ${grant.clientId} AND first_granted_at IS NULL
        ),
        inserted AS (
          INSERT INTO oauth_grants (id, account_id, client_id, client_name, redirect_uri, resource, scope, created_at,
            last_used_at)
          VALUES (${id}::uuid, ${grant.accountId}::uuid, ${grant.clientId}, ${grant.clientName}, ${grant.redirectUri},
            ${grant.resource}, ${grant.scope}, ${created}, ${created})
          RETURNING id
        )
        INSERT INTO oauth_codes (code_hash, grant_id, challenge, redirect_uri_given, expires_at)
        SELECT ${hashSecret(code.code)}, id, ${code.challenge}, ${code.redirectUriGiven}, ${at(sql, code.expiresAt)}
        FROM inserted`
      return id
    }, Effect.orDie)

    const useCode = SqlSchema.findOneOption({
      Request: SecretAt,
      Result: CodeGrantRow,
      execute: ({ hash, now }) => sql`UPDATE oauth_codes c SET used_at = ${now}::timestamptz FROM oauth_grants g
        WHERE c.code_hash = ${hash} AND c.used_at IS NULL AND c.expires_at > ${now}::timestamptz
          AND g.id = c.grant_id AND g.revoked_at IS NULL
        RETURNING g.id::text AS "grantId", g.client_id AS "clientId", g.redirect_uri AS "redirectUri", g.resource,
          g.scope, c.challenge AS "codeChallenge", c.redirect_uri_given AS "redirectUriGiven"`
    })
    // A code used before (and unexpired) revokes its grant; a revocation already there is kept.
    const revokeByCode = SqlSchema.findAll({
      Request: SecretAt,
      Result: Found,
      execute: ({ hash, now }) => sql`UPDATE oauth_grants g SET revoked_at = COALESCE(g.revoked_at, ${now}::timestamptz)
        FROM oauth_codes c
        WHERE c.code_hash = ${hash} AND c.used_at IS NOT NULL AND c.expires_at > ${now}::timestamptz
          AND g.id = c.grant_id
        RETURNING g.id::text AS id`
    })
    const redeemCode = Effect.fn("PgOAuthStore.redeemCode")(function* (code: string, now: DateTime.Utc) {
      const request = { hash: hashSecret(code), now: iso(now) }
      const used = yield* useCode(request)
      if (Option.isSome(used)) return { _tag: "Redeemed", grant: used.value } satisfies Redemption
      const revoked = yield* revokeByCode(request)
      return { _tag: revoked.length > 0 ? "Reused" : "Unknown" } satisfies Redemption
    }, Effect.orDie)

    const issueTokens = Effect.fn("PgOAuthStore.issueTokens")(function* (
      grantId: GrantId,
      tokens: TokenPair,
      now: DateTime.Utc
    ) {
      const issued = at(sql, now)
      // Expired tokens go, of any grant (Sql.ts `expiredRows`): an expired token is as good as unknown.
      yield* sql`WITH expired AS (
          DELETE FROM oauth_tokens WHERE token_hash IN (${expiredRows(sql, "oauth_tokens", issued)})
        ),
        used AS (UPDATE oauth_grants SET last_used_at = ${issued} WHERE id = ${grantId}::uuid)
        INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at)
        VALUES (${hashSecret(tokens.access)}, ${grantId}::uuid, 'access', ${at(sql, tokens.accessExpiresAt)}),
          (${hashSecret(tokens.refresh)}, ${grantId}::uuid, 'refresh', ${at(sql, tokens.refreshExpiresAt)})`
    }, Effect.orDie)

    // One statement: the token spent, expired tokens (any grant's) deleted, the next pair added, the grant's use noted.
    const spendRefresh = SqlSchema.findOneOption({
      Request: Rotate,
      Result: RotatedRow,
      execute: ({ hash, clientId, now, ...next }) => sql`WITH spent AS (
          UPDATE oauth_tokens t SET spent_at = ${now}::timestamptz FROM oauth_grants g
          WHERE t.token_hash = ${hash} AND t.kind = 'refresh' AND t.spent_at IS NULL
            AND t.expires_at > ${now}::timestamptz AND g.id = t.grant_id AND g.client_id = ${clientId}
            AND g.revoked_at IS NULL
          RETURNING g.id, g.resource, g.scope
        ),
        expired AS (
          DELETE FROM oauth_tokens WHERE EXISTS (SELECT FROM spent)
            AND token_hash IN (${expiredRows(sql, "oauth_tokens", sql`${now}::timestamptz`)})
        ),
        used AS (UPDATE oauth_grants SET last_used_at = ${now}::timestamptz WHERE id IN (SELECT id FROM spent)),
        issued AS (
          INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at)
          SELECT v.hash, spent.id, v.kind, v.expires_at
          FROM spent, (VALUES
            (${next.access}, 'access', ${next.accessExpiresAt}::timestamptz),
            (${next.refresh}, 'refresh', ${next.refreshExpiresAt}::timestamptz)
          ) AS v (hash, kind, expires_at)
        )
        SELECT resource, scope FROM spent`
    })
    // A refresh token spent before (unexpired, of this client) revokes its grant; a revocation already there is kept.
    const revokeByRefresh = SqlSchema.findAll({
      Request: ClientTokenAt,
      Result: Found,
      execute: ({ hash, clientId, now }) => sql`UPDATE oauth_grants g
        SET revoked_at = COALESCE(g.revoked_at, ${now}::timestamptz)
        FROM oauth_tokens t
        WHERE t.token_hash = ${hash} AND t.kind = 'refresh' AND t.spent_at IS NOT NULL
          AND t.expires_at > ${now}::timestamptz AND g.id = t.grant_id AND g.client_id = ${clientId}
        RETURNING g.id::text AS id`
    })
    const rotateRefresh = Effect.fn("PgOAuthStore.rotateRefresh")(function* (
      refresh: string,
      clientId: string,
      next: TokenPair,
      now: DateTime.Utc
    ) {
      const request = { hash: hashSecret(refresh), clientId, now: iso(now) }
      const rotated = yield* spendRefresh({
        ...request,
        access: hashSecret(next.access),
        accessExpiresAt: iso(next.accessExpiresAt),
        refresh: hashSecret(next.refresh),
        refreshExpiresAt: iso(next.refreshExpiresAt)
      })
      if (Option.isSome(rotated)) return { _tag: "Rotated", ...rotated.value } satisfies Rotation
      const revoked = yield* revokeByRefresh(request)
      return { _tag: revoked.length > 0 ? "Reused" : "Unknown" } satisfies Rotation
    }, Effect.orDie)

    // An unexpired token (access or refresh, spent or not) of the client revokes its grant (RFC 7009).
    const revokeGrantOfToken = SqlSchema.findAll({
      Request: ClientTokenAt,
      Result: Found,
      execute: ({ hash, clientId, now }) => sql`UPDATE oauth_grants g SET revoked_at = ${now}::timestamptz
        FROM oauth_tokens t
        WHERE t.token_hash = ${hash} AND t.expires_at > ${now}::timestamptz AND g.id = t.grant_id
          AND g.client_id = ${clientId} AND g.revoked_at IS NULL
        RETURNING g.id::text AS id`
    })
    const revokeByToken = Effect.fn("PgOAuthStore.revokeByToken")(function* (
      token: string,
      clientId: string,
      now: DateTime.Utc
    ) {
      const revoked = yield* revokeGrantOfToken({ hash: hashSecret(token), clientId, now: iso(now) })
      return revoked.length > 0
    }, Effect.orDie)

    const byAccessToken = SqlSchema.findOneOption({
      Request: SecretAt,
      Result: AccessRow,
      execute: ({ hash, now }) => sql`SELECT ${sql.literal(accountColumns)}, g.resource, g.client_id AS "clientId"
        FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN accounts a ON a.id = g.account_id
        WHERE t.token_hash = ${hash} AND t.kind = 'access' AND t.expires_at > ${now}::timestamptz
          AND g.revoked_at IS NULL`
    })
    const accessToken = Effect.fn("PgOAuthStore.accessToken")(function* (token: string, now: DateTime.Utc) {
      const found = yield* byAccessToken({ hash: hashSecret(token), now: iso(now) })
      return Option.map(found, ({ resource, clientId, ...account }) => ({ account, resource, clientId }))
    }, Effect.orDie)

    const byAccount = SqlSchema.findAll({
      Request: Schema.String,
      Result: GrantRow,
      execute: (accountId) => sql`SELECT id::text AS "grantId", client_id AS "clientId", client_name AS "clientName",
          redirect_uri AS "redirectUri", ${sql.literal(utc("created_at"))} AS "createdAt",
          ${sql.literal(utc("last_used_at"))} AS "lastUsedAt"
        FROM oauth_grants WHERE account_id = ${accountId}::uuid AND revoked_at IS NULL
        ORDER BY created_at DESC, id DESC`
    })
    const grants = Effect.fn("PgOAuthStore.grants")((accountId: AccountId) => byAccount(accountId), Effect.orDie)

    const revokeGrant = Effect.fn("PgOAuthStore.revokeGrant")(function* (
      accountId: AccountId,
      grantId: GrantId,
      now: DateTime.Utc
    ) {
      const rows = yield* sql`UPDATE oauth_grants SET revoked_at = ${at(sql, now)}
        WHERE id = ${grantId}::uuid AND account_id = ${accountId}::uuid AND revoked_at IS NULL
        RETURNING id`
      return rows.length > 0
    }, Effect.orDie)

    return OAuthStore.of({
      saveClient,
      forgetUnusedClients,
      findClient,
      createGrant,
      redeemCode,
      issueTokens,
      rotateRefresh,
      accessToken,
      revokeByToken,
      grants,
      revokeGrant
    })
  })
)
