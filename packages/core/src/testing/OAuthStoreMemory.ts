import { DateTime, Effect, Layer, Option } from "effect"
import { GrantId } from "../Ids.ts"
import { type GrantInfo, OAuthStore, type TokenPair } from "../ports/OAuthStore.ts"
import { MemoryDb, nextSeq } from "./MemoryDb.ts"
import { memoryUuid } from "./memoryText.ts"

type Service = OAuthStore["Service"]
type Redemption = Effect.Success<ReturnType<Service["redeemCode"]>>
type Rotation = Effect.Success<ReturnType<Service["rotateRefresh"]>>

/** OAuthStore over the shared in-memory state, as PgOAuthStore behaves (secrets kept in clear: tests only). */
export const OAuthStoreOnMemory = Layer.effect(
  OAuthStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const unexpired = (expiresAt: DateTime.Utc, now: DateTime.Utc) => DateTime.isLessThan(now, expiresAt)
    const grantOf = (grantId: GrantId) => db.oauthGrants.find((g) => g.grantId === grantId)
    const revoke = (grantId: GrantId, now: DateTime.Utc) => {
      const grant = grantOf(grantId)
      if (grant !== undefined && grant.revokedAt === null) grant.revokedAt = now
    }
    // Expired tokens go, any grant's (as the SQL store does), the pair is added, and the grant's use noted.
    const addPair = (grantId: GrantId, tokens: TokenPair, now: DateTime.Utc) => {
      for (const [token, row] of db.oauthTokens) {
        if (!unexpired(row.expiresAt, now)) db.oauthTokens.delete(token)
      }
      db.oauthTokens.set(tokens.access, { grantId, kind: "access", expiresAt: tokens.accessExpiresAt, spent: false })
      db.oauthTokens.set(tokens.refresh, { grantId, kind: "refresh", expiresAt: tokens.refreshExpiresAt, spent: false })
      const grant = grantOf(grantId)
      if (grant !== undefined) grant.lastUsedAt = now
    }

    return OAuthStore.of({
      saveClient: (client) => Effect.sync(() => void db.oauthClients.set(client.clientId, client)),
      forgetUnusedClients: (before) =>
        Effect.sync(() => {
          let forgotten = 0
          for (const [clientId, client] of db.oauthClients) {
            if (DateTime.isLessThan(client.createdAt, before) && !db.oauthGrants.some((g) => g.clientId === clientId)) {
              db.oauthClients.delete(clientId)
              forgotten += 1
            }
          }
          return forgotten
        }),
      findClient: (clientId) => Effect.sync(() => Option.fromNullishOr(db.oauthClients.get(clientId))),
      createGrant: (grant, code) =>
        Effect.sync(() => {
          for (const [key, row] of db.oauthCodes) {
            if (!unexpired(row.expiresAt, grant.createdAt)) db.oauthCodes.delete(key)
          }
          const grantId = GrantId.make(memoryUuid(nextSeq(db)))
          db.oauthGrants.push({ ...grant, grantId, lastUsedAt: grant.createdAt, revokedAt: null })
          db.oauthCodes.set(code.code, { ...code, grantId, used: false })
          return grantId
        }),
      redeemCode: (code, now) =>
        Effect.sync((): Redemption => {
          const row = db.oauthCodes.get(code)
          const grant = row === undefined ? undefined : grantOf(row.grantId)
          if (row === undefined || grant === undefined || !unexpired(row.expiresAt, now)) {
            return { _tag: "Unknown" }
          }
          if (row.used) {
            revoke(grant.grantId, now)
            return { _tag: "Reused" }
          }
          if (grant.revokedAt !== null) return { _tag: "Unknown" }
          row.used = true
          const { grantId, clientId, redirectUri, resource, scope } = grant
          return {
            _tag: "Redeemed",
            grant: {
              grantId,
              clientId,
              redirectUri,
              resource,
              scope,
              codeChallenge: row.challenge,
              redirectUriGiven: row.redirectUriGiven
            }
          }
        }),
      issueTokens: (grantId, tokens, now) => Effect.sync(() => addPair(grantId, tokens, now)),
      rotateRefresh: (refresh, clientId, next, now) =>
        Effect.sync((): Rotation => {
          const row = db.oauthTokens.get(refresh)
          const grant = row === undefined ? undefined : grantOf(row.grantId)
          if (
            row === undefined ||
            grant === undefined ||
            row.kind !== "refresh" ||
            grant.clientId !== clientId ||
            !unexpired(row.expiresAt, now)
          ) {
            return { _tag: "Unknown" }
          }
          if (row.spent) {
            revoke(grant.grantId, now)
            return { _tag: "Reused" }
          }
          if (grant.revokedAt !== null) return { _tag: "Unknown" }
          row.spent = true
          addPair(grant.grantId, next, now)
          return { _tag: "Rotated", resource: grant.resource, scope: grant.scope }
        }),
      accessToken: (token, now) =>
        Effect.sync(() => {
          const row = db.oauthTokens.get(token)
          if (row === undefined || row.kind !== "access" || !unexpired(row.expiresAt, now)) return Option.none()
          const grant = grantOf(row.grantId)
          if (grant === undefined || grant.revokedAt !== null) return Option.none()
          return Option.map(Option.fromNullishOr(db.accounts.get(grant.accountId)), ({ account }) => ({
            account,
            resource: grant.resource,
            clientId: grant.clientId
          }))
        }),
      revokeByToken: (token, clientId, now) =>
        Effect.sync(() => {
          const row = db.oauthTokens.get(token)
          const grant = row === undefined ? undefined : grantOf(row.grantId)
          if (
            row === undefined ||
            grant === undefined ||
            grant.clientId !== clientId ||
            grant.revokedAt !== null ||
            !unexpired(row.expiresAt, now)
          ) {
            return false
          }
          grant.revokedAt = now
          return true
        }),
      grants: (accountId) =>
        Effect.sync(() =>
          db.oauthGrants
            .filter((g) => g.accountId === accountId && g.revokedAt === null)
            .toReversed()
            .toSorted((a, b) => DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt))
            .map((g): GrantInfo => ({
              grantId: g.grantId,
              clientId: g.clientId,
              clientName: g.clientName,
              redirectUri: g.redirectUri,
              createdAt: g.createdAt,
              lastUsedAt: g.lastUsedAt
            }))
        ),
      revokeGrant: (accountId, grantId, now) =>
        Effect.sync(() => {
          const grant = grantOf(grantId)
          if (grant === undefined || grant.accountId !== accountId || grant.revokedAt !== null) return false
          grant.revokedAt = now
          return true
        })
    })
  })
)
