import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { type Account, AccountStore, GrantId, type GrantInfo, OAuthStore, type TokenPair } from "@tenders/core"
import { memoryStore } from "@tenders/core/testing"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { hashSecret } from "../src/Secrets.ts"
import { backends } from "./backends.ts"

// Fixed instants: the store takes `now` from its callers. Every case uses its own account, codes and tokens.
const t0 = DateTime.makeUnsafe("2026-05-04T09:00:00Z")
const minutes = (n: number) => DateTime.addDuration(t0, Duration.minutes(n))
const days = (n: number) => DateTime.addDuration(t0, Duration.days(n))
const resource = "https://tenders.example/mcp"

/** A pair issued at `at`: the access token lives an hour, the refresh token 30 days. */
const pair = (name: string, at: DateTime.Utc): TokenPair => ({
  access: `${name}-access`,
  accessExpiresAt: DateTime.addDuration(at, Duration.hours(1)),
  refresh: `${name}-refresh`,
  refreshExpiresAt: DateTime.addDuration(at, Duration.days(30))
})

/** A grant of `account` to `client` and its code (valid 10 minutes from `at`). */
const grantFor = Effect.fnUntraced(function* (account: Account, name: string, at = t0, client = "client-a") {
  const code = `${name}-code`
  const grantId = yield* (yield* OAuthStore).createGrant(
    {
      accountId: account.id,
      clientId: client,
      clientName: `App ${client}`,
      redirectUri: `https://${client}.example/callback`,
      resource,
      scope: "tenders",
      createdAt: at
    },
    {
      code,
      challenge: `${name}-challenge`,
      expiresAt: DateTime.addDuration(at, Duration.minutes(10)),
      redirectUriGiven: !name.endsWith("-implicit-uri")
    }
  )
  return { account, grantId, code }
})

/** A new account with a grant to `client` and its code. */
const seed = Effect.fnUntraced(function* (name: string, at = t0, client = "client-a") {
  const account = yield* (yield* AccountStore).saveAccount({
    email: `${name}@example.com`,
    plan: "pro",
    monthlyLimit: null
  })
  return yield* grantFor(account, name, at, client)
})

/** Redeems a code and issues the grant's first pair, as the token endpoint does. */
const exchange = Effect.fnUntraced(function* (code: string, tokens: TokenPair, at: DateTime.Utc) {
  const store = yield* OAuthStore
  const redeemed = yield* store.redeemCode(code, at)
  assert.strictEqual(redeemed._tag, "Redeemed")
  if (redeemed._tag === "Redeemed") yield* store.issueTokens(redeemed.grant.grantId, tokens, at)
})

const listed = (grants: ReadonlyArray<GrantInfo>) =>
  grants.map((g) => ({
    ...g,
    createdAt: DateTime.formatIso(g.createdAt),
    lastUsedAt: g.lastUsedAt === null ? null : DateTime.formatIso(g.lastUsedAt)
  }))

const stores: ReadonlyArray<readonly [string, () => Layer.Layer<AccountStore | OAuthStore, unknown>]> = [
  ["in-memory", () => memoryStore],
  ...backends()
]

for (const [name, makeLayer] of stores) {
  describe(`OAuth store on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("saves a client (again: replaced) and finds it by id; an unknown id finds none", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const client = {
            clientId: "client-saved",
            clientName: "Saved",
            redirectUris: ["https://a.example/cb", "http://127.0.0.1:4711/cb"],
            createdAt: t0
          }
          const found = (id: string) =>
            Effect.map(
              store.findClient(id),
              Option.map((c) => ({ ...c, createdAt: DateTime.formatIso(c.createdAt) }))
            )
          yield* store.saveClient(client)
          assert.deepStrictEqual(
            yield* found("client-saved"),
            Option.some({ ...client, createdAt: "2026-05-04T09:00:00.000Z" })
          )
          yield* store.saveClient({ ...client, clientName: "Renamed", redirectUris: ["https://b.example/cb"] })
          assert.deepStrictEqual(
            yield* found("client-saved"),
            Option.some({
              ...client,
              clientName: "Renamed",
              redirectUris: ["https://b.example/cb"],
              createdAt: "2026-05-04T09:00:00.000Z"
            })
          )
          assert.isTrue(Option.isNone(yield* found("no-such-client")))
        })
      )

      it.effect("forgets the clients registered before a time that no grant names, and only those", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const registered = (clientId: string, createdAt: DateTime.Utc) =>
            store.saveClient({ clientId, clientName: clientId, redirectUris: ["https://a.example/cb"], createdAt })
          yield* registered("client-old-unused", days(-40))
          yield* registered("client-old-granted", days(-40))
          yield* registered("client-recent-unused", days(-5))
          yield* seed("old-granted", days(-39), "client-old-granted")
          assert.strictEqual(yield* store.forgetUnusedClients(days(-30)), 1)
          assert.isTrue(Option.isNone(yield* store.findClient("client-old-unused")))
          assert.isTrue(Option.isSome(yield* store.findClient("client-old-granted")))
          assert.isTrue(Option.isSome(yield* store.findClient("client-recent-unused")))
          assert.strictEqual(yield* store.forgetUnusedClients(days(-30)), 0)
        })
      )

      it.effect("a code gives its grant and challenge once; the tokens issued then give the account", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, grantId, code } = yield* seed("redeem")
          const redeemed = yield* store.redeemCode(code, minutes(1))
          assert.deepStrictEqual(redeemed, {
            _tag: "Redeemed",
            grant: {
              grantId,
              clientId: "client-a",
              redirectUri: "https://client-a.example/callback",
              resource,
              scope: "tenders",
              codeChallenge: "redeem-challenge",
              redirectUriGiven: true
            }
          })
          // Whether the authorization request named its redirect URI is kept with the code.
          const implicit = yield* seed("redeem-implicit-uri")
          const withoutUri = yield* store.redeemCode(implicit.code, minutes(1))
          assert.isFalse(withoutUri._tag === "Redeemed" && withoutUri.grant.redirectUriGiven)
          assert.strictEqual(withoutUri._tag, "Redeemed")
          const tokens = pair("redeem", minutes(1))
          yield* store.issueTokens(grantId, tokens, minutes(1))
          assert.deepStrictEqual(
            yield* store.accessToken(tokens.access, minutes(2)),
            Option.some({ account, resource, clientId: "client-a" })
          )
          // A refresh token is no access token, and an access token no refresh token.
          assert.isTrue(Option.isNone(yield* store.accessToken(tokens.refresh, minutes(2))))
          assert.deepStrictEqual(
            yield* store.rotateRefresh(tokens.access, "client-a", pair("redeem-next", minutes(2)), minutes(2)),
            { _tag: "Unknown" }
          )
          assert.isTrue(Option.isNone(yield* store.accessToken("no-such-token", minutes(2))))
          assert.deepStrictEqual(listed(yield* store.grants(account.id)), [
            {
              grantId,
              clientId: "client-a",
              clientName: "App client-a",
              redirectUri: "https://client-a.example/callback",
              createdAt: "2026-05-04T09:00:00.000Z",
              lastUsedAt: "2026-05-04T09:01:00.000Z"
            }
          ])
        })
      )

      it.effect("a code used twice revokes its grant: its tokens stop working and it is no longer listed", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, code } = yield* seed("twice")
          const tokens = pair("twice", minutes(1))
          yield* exchange(code, tokens, minutes(1))
          assert.isTrue(Option.isSome(yield* store.accessToken(tokens.access, minutes(2))))
          assert.deepStrictEqual(yield* store.redeemCode(code, minutes(2)), { _tag: "Reused" })
          assert.isTrue(Option.isNone(yield* store.accessToken(tokens.access, minutes(3))))
          assert.deepStrictEqual(
            yield* store.rotateRefresh(tokens.refresh, "client-a", pair("twice-next", minutes(3)), minutes(3)),
            { _tag: "Unknown" }
          )
          assert.deepStrictEqual(yield* store.grants(account.id), [])
        })
      )

      it.effect(
        "of 8 concurrent redemptions of one code one is Redeemed, the others Reused; its tokens are refused",
        () =>
          Effect.gen(function* () {
            const store = yield* OAuthStore
            const { account, code } = yield* seed("race-code")
            const tokens = pair("race-code", minutes(1))
            const outcomes = yield* Effect.all(
              Array.from({ length: 8 }, () =>
                store
                  .redeemCode(code, minutes(1))
                  .pipe(
                    Effect.tap((outcome) =>
                      outcome._tag === "Redeemed"
                        ? store.issueTokens(outcome.grant.grantId, tokens, minutes(1))
                        : Effect.void
                    )
                  )
              ),
              { concurrency: "unbounded" }
            )
            const tags = outcomes.map((o) => o._tag)
            assert.strictEqual(tags.filter((t) => t === "Redeemed").length, 1, tags.join())
            assert.strictEqual(tags.filter((t) => t === "Reused").length, 7, tags.join())
            assert.isTrue(Option.isNone(yield* store.accessToken(tokens.access, minutes(2))))
            assert.deepStrictEqual(yield* store.grants(account.id), [])
          })
      )

      it.effect("an expired, unknown or revoked grant's code is Unknown and revokes nothing", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const late = yield* seed("late-code")
          assert.deepStrictEqual(yield* store.redeemCode(late.code, minutes(10)), { _tag: "Unknown" })
          assert.strictEqual((yield* store.grants(late.account.id)).length, 1)
          assert.deepStrictEqual(yield* store.redeemCode("no-such-code", minutes(1)), { _tag: "Unknown" })

          // Used, then replayed after its expiry: unknown, and the grant's tokens keep working.
          const used = yield* seed("used-code")
          const tokens = pair("used-code", minutes(1))
          yield* exchange(used.code, tokens, minutes(1))
          assert.deepStrictEqual(yield* store.redeemCode(used.code, minutes(11)), { _tag: "Unknown" })
          assert.isTrue(Option.isSome(yield* store.accessToken(tokens.access, minutes(12))))

          const revoked = yield* seed("revoked-code")
          assert.isTrue(yield* store.revokeGrant(revoked.account.id, revoked.grantId, minutes(1)))
          assert.deepStrictEqual(yield* store.redeemCode(revoked.code, minutes(2)), { _tag: "Unknown" })
        })
      )

      it.effect("a refresh token rotates once into a working pair, and notes the grant's use", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, code } = yield* seed("rotate")
          const first = pair("rotate-1", minutes(1))
          yield* exchange(code, first, minutes(1))
          const second = pair("rotate-2", minutes(30))
          assert.deepStrictEqual(yield* store.rotateRefresh(first.refresh, "client-a", second, minutes(30)), {
            _tag: "Rotated",
            resource,
            scope: "tenders"
          })
          assert.deepStrictEqual(
            yield* store.accessToken(second.access, minutes(31)),
            Option.some({ account, resource, clientId: "client-a" })
          )
          const third = pair("rotate-3", days(2))
          assert.strictEqual((yield* store.rotateRefresh(second.refresh, "client-a", third, days(2)))._tag, "Rotated")
          assert.isTrue(Option.isSome(yield* store.accessToken(third.access, days(2))))
          assert.deepStrictEqual(
            (yield* store.grants(account.id)).map((g) => g.lastUsedAt && DateTime.formatIso(g.lastUsedAt)),
            [DateTime.formatIso(days(2))]
          )
        })
      )

      it.effect("a spent refresh token used again revokes the grant: its newest access token stops working", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, code } = yield* seed("replay")
          const first = pair("replay-1", minutes(1))
          yield* exchange(code, first, minutes(1))
          const second = pair("replay-2", minutes(5))
          assert.strictEqual(
            (yield* store.rotateRefresh(first.refresh, "client-a", second, minutes(5)))._tag,
            "Rotated"
          )
          const replay = pair("replay-3", minutes(6))
          assert.deepStrictEqual(yield* store.rotateRefresh(first.refresh, "client-a", replay, minutes(6)), {
            _tag: "Reused"
          })
          assert.isTrue(Option.isNone(yield* store.accessToken(second.access, minutes(7))))
          assert.isTrue(Option.isNone(yield* store.accessToken(replay.access, minutes(7))))
          assert.deepStrictEqual(
            yield* store.rotateRefresh(second.refresh, "client-a", pair("replay-4", minutes(7)), minutes(7)),
            { _tag: "Unknown" }
          )
          assert.deepStrictEqual(yield* store.grants(account.id), [])
        })
      )

      it.effect("of 8 concurrent rotations of one refresh token one is Rotated, the others Reused", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, code } = yield* seed("race-refresh")
          const first = pair("race-refresh", minutes(1))
          yield* exchange(code, first, minutes(1))
          const outcomes = yield* Effect.all(
            Array.from({ length: 8 }, (_, i) =>
              store.rotateRefresh(first.refresh, "client-a", pair(`race-refresh-${i}`, minutes(2)), minutes(2))
            ),
            { concurrency: "unbounded" }
          )
          const tags = outcomes.map((o) => o._tag)
          assert.strictEqual(tags.filter((t) => t === "Rotated").length, 1, tags.join())
          assert.strictEqual(tags.filter((t) => t === "Reused").length, 7, tags.join())
          const winner = tags.indexOf("Rotated")
          assert.isTrue(Option.isNone(yield* store.accessToken(`race-refresh-${winner}-access`, minutes(3))))
          assert.deepStrictEqual(yield* store.grants(account.id), [])
        })
      )

      it.effect("another client's refresh token is Unknown and spends nothing", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { code } = yield* seed("other-client")
          const first = pair("other-client", minutes(1))
          yield* exchange(code, first, minutes(1))
          const next = pair("other-client-2", minutes(2))
          assert.deepStrictEqual(yield* store.rotateRefresh(first.refresh, "client-b", next, minutes(2)), {
            _tag: "Unknown"
          })
          assert.isTrue(Option.isNone(yield* store.accessToken(next.access, minutes(2))))
          assert.deepStrictEqual(yield* store.rotateRefresh(first.refresh, "client-b", next, minutes(3)), {
            _tag: "Unknown"
          })
          assert.strictEqual((yield* store.rotateRefresh(first.refresh, "client-a", next, minutes(3)))._tag, "Rotated")
          assert.isTrue(Option.isSome(yield* store.accessToken(first.access, minutes(4))))
        })
      )

      it.effect("an expired access token is refused; an expired refresh token is Unknown and revokes nothing", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const { account, code } = yield* seed("expiry")
          const tokens = pair("expiry", minutes(1))
          yield* exchange(code, tokens, minutes(1))
          assert.isTrue(Option.isSome(yield* store.accessToken(tokens.access, minutes(60))))
          assert.isTrue(Option.isNone(yield* store.accessToken(tokens.access, minutes(61))))
          const late = DateTime.addDuration(minutes(1), Duration.days(30))
          assert.deepStrictEqual(yield* store.rotateRefresh(tokens.refresh, "client-a", pair("expiry-2", late), late), {
            _tag: "Unknown"
          })
          assert.strictEqual((yield* store.grants(account.id)).length, 1)
        })
      )

      it.effect(
        "a token of the grant's client revokes the grant, once; another client's or an expired one does not",
        () =>
          Effect.gen(function* () {
            const store = yield* OAuthStore
            const { account, code } = yield* seed("by-token")
            const first = pair("by-token-1", minutes(1))
            yield* exchange(code, first, minutes(1))
            assert.isFalse(yield* store.revokeByToken(first.refresh, "client-b", minutes(2)))
            assert.isFalse(yield* store.revokeByToken("no-such-token", "client-a", minutes(2)))
            // The access token expired (an hour): it revokes nothing; the refresh token still works.
            assert.isFalse(yield* store.revokeByToken(first.access, "client-a", minutes(61)))
            assert.isTrue(Option.isSome(yield* store.accessToken(first.access, minutes(2))))
            assert.strictEqual((yield* store.grants(account.id)).length, 1)
            assert.isTrue(yield* store.revokeByToken(first.refresh, "client-a", minutes(3)))
            assert.isTrue(Option.isNone(yield* store.accessToken(first.access, minutes(4))))
            assert.deepStrictEqual(yield* store.grants(account.id), [])
            assert.isFalse(yield* store.revokeByToken(first.refresh, "client-a", minutes(4))) // revoked already
            assert.deepStrictEqual(
              yield* store.rotateRefresh(first.refresh, "client-a", pair("by-token-2", minutes(5)), minutes(5)),
              { _tag: "Unknown" }
            )

            // By an access token; and by a refresh token already spent (rotated), which ends the newer pair too.
            const byAccess = yield* seed("by-access")
            const tokens = pair("by-access", minutes(1))
            yield* exchange(byAccess.code, tokens, minutes(1))
            assert.isTrue(yield* store.revokeByToken(tokens.access, "client-a", minutes(2)))
            assert.isTrue(Option.isNone(yield* store.accessToken(tokens.access, minutes(2))))
            const bySpent = yield* seed("by-spent")
            const spent = pair("by-spent-1", minutes(1))
            yield* exchange(bySpent.code, spent, minutes(1))
            const next = pair("by-spent-2", minutes(2))
            assert.strictEqual(
              (yield* store.rotateRefresh(spent.refresh, "client-a", next, minutes(2)))._tag,
              "Rotated"
            )
            assert.isTrue(yield* store.revokeByToken(spent.refresh, "client-a", minutes(3)))
            assert.isTrue(Option.isNone(yield* store.accessToken(next.access, minutes(3))))
          })
      )

      it.effect("lists an account's grants newest first; revokes only its own, once", () =>
        Effect.gen(function* () {
          const store = yield* OAuthStore
          const owner = yield* seed("owner", minutes(0))
          const newer = yield* grantFor(owner.account, "owner-2", minutes(5), "client-b")
          const intruder = yield* seed("intruder")
          const tokens = pair("owner", minutes(1))
          yield* exchange(owner.code, tokens, minutes(1))
          assert.deepStrictEqual(
            (yield* store.grants(owner.account.id)).map((g) => [g.grantId, g.clientId]),
            [
              [newer.grantId, "client-b"],
              [owner.grantId, "client-a"]
            ]
          )
          assert.isFalse(yield* store.revokeGrant(intruder.account.id, owner.grantId, minutes(2)))
          assert.isFalse(yield* store.revokeGrant(owner.account.id, intruder.grantId, minutes(2)))
          assert.isFalse(yield* store.revokeGrant(owner.account.id, GrantId.make(crypto.randomUUID()), minutes(2)))
          assert.isTrue(Option.isSome(yield* store.accessToken(tokens.access, minutes(3))))
          assert.isTrue(yield* store.revokeGrant(owner.account.id, owner.grantId, minutes(3)))
          assert.isFalse(yield* store.revokeGrant(owner.account.id, owner.grantId, minutes(4)))
          assert.isTrue(Option.isNone(yield* store.accessToken(tokens.access, minutes(4))))
          assert.deepStrictEqual(
            (yield* store.grants(owner.account.id)).map((g) => g.grantId),
            [newer.grantId]
          )
          assert.strictEqual((yield* store.grants(intruder.account.id)).length, 1)
        })
      )
    })
  })
}

for (const [name, makeLayer] of backends()) {
  describe(`OAuth rows on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(
        "keeps codes and tokens hashed; drops expired codes with a new grant, any grant's expired tokens with new ones",
        () =>
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient
            const store = yield* OAuthStore
            const { grantId, code } = yield* seed("rows")
            const first = pair("rows-1", minutes(1))
            yield* exchange(code, first, minutes(1))
            const stored = yield* sql<{ hash: string; kind: string }>`SELECT token_hash AS hash, kind FROM oauth_tokens
            WHERE grant_id = ${grantId}::uuid ORDER BY kind`
            assert.deepStrictEqual(stored, [
              { hash: hashSecret(first.access), kind: "access" },
              { hash: hashSecret(first.refresh), kind: "refresh" }
            ])
            const codes = yield* sql<{ hash: string }>`SELECT code_hash AS hash FROM oauth_codes
            WHERE grant_id = ${grantId}::uuid`
            assert.deepStrictEqual(codes, [{ hash: hashSecret(code) }])

            const other = yield* seed("rows-other")
            const others = pair("rows-other", minutes(1))
            yield* exchange(other.code, others, minutes(1))
            const tokensOf = (grant: GrantId) =>
              Effect.map(
                sql<{ hash: string }>`SELECT token_hash AS hash FROM oauth_tokens WHERE grant_id = ${grant}::uuid`,
                (rows) => rows.map((row) => row.hash)
              )

            // Two hours on, the first access tokens have expired: the next rotation deletes them, whoever's they are,
            // and keeps the rest.
            const second = pair("rows-2", minutes(121))
            yield* store.rotateRefresh(first.refresh, "client-a", second, minutes(121))
            assert.sameMembers(yield* tokensOf(grantId), [first.refresh, second.access, second.refresh].map(hashSecret))
            assert.sameMembers(yield* tokensOf(other.grantId), [hashSecret(others.refresh)])
            yield* seed("rows-later", minutes(11))
            assert.deepStrictEqual(yield* sql`SELECT code_hash FROM oauth_codes WHERE grant_id = ${grantId}::uuid`, [])

            // Forty days on, every token of both grants has expired: a new grant's first pair deletes them.
            const late = yield* seed("rows-late", days(40))
            yield* exchange(late.code, pair("rows-late", days(40)), days(40))
            assert.deepStrictEqual(yield* tokensOf(grantId), [])
            assert.deepStrictEqual(yield* tokensOf(other.grantId), [])
          })
      )
    })
  })
}
