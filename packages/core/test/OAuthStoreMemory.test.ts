import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { AccountStore, OAuthStore, type TokenPair } from "../src/index.ts"
import { memoryStore } from "../src/testing/index.ts"

// The full contract runs on this twin and on PostgreSQL in packages/store-postgres/test/oauth.test.ts.
const t0 = DateTime.makeUnsafe("2026-05-04T09:00:00Z")
const minutes = (n: number) => DateTime.addDuration(t0, Duration.minutes(n))

const pair = (name: string, at: DateTime.Utc): TokenPair => ({
  access: `${name}-access`,
  accessExpiresAt: DateTime.addDuration(at, Duration.hours(1)),
  refresh: `${name}-refresh`,
  refreshExpiresAt: DateTime.addDuration(at, Duration.days(30))
})

/** An account whose grant to `client-a` has had its code exchanged for the pair `first` at minute 1. */
const connected = Effect.gen(function* () {
  const account = yield* (yield* AccountStore).saveAccount({ email: "o@example.com", plan: "pro", monthlyLimit: null })
  const store = yield* OAuthStore
  const grantId = yield* store.createGrant(
    {
      accountId: account.id,
      clientId: "client-a",
      clientName: "App",
      redirectUri: "https://a.example/cb",
      resource: "https://t.example/mcp",
      scope: "tenders",
      createdAt: t0
    },
    { code: "code", challenge: "challenge", expiresAt: minutes(10), redirectUriGiven: true }
  )
  const redeemed = yield* store.redeemCode("code", minutes(1))
  assert.strictEqual(redeemed._tag, "Redeemed")
  yield* store.issueTokens(grantId, pair("first", minutes(1)), minutes(1))
  return { account, grantId, store }
})

describe("OAuthStore in memory", () => {
  it.effect("a code used again revokes the grant, whose access token is then refused", () =>
    Effect.gen(function* () {
      const { account, store } = yield* connected
      assert.isTrue(Option.isSome(yield* store.accessToken("first-access", minutes(2))))
      assert.deepStrictEqual(yield* store.redeemCode("code", minutes(2)), { _tag: "Reused" })
      assert.isTrue(Option.isNone(yield* store.accessToken("first-access", minutes(3))))
      assert.deepStrictEqual(yield* store.grants(account.id), [])
    }).pipe(Effect.provide(memoryStore))
  )

  it.effect("a refresh token rotates once for its client; spent again, it revokes the grant", () =>
    Effect.gen(function* () {
      const { store } = yield* connected
      const next = pair("second", minutes(5))
      assert.deepStrictEqual(yield* store.rotateRefresh("first-refresh", "client-b", next, minutes(5)), {
        _tag: "Unknown"
      })
      assert.deepStrictEqual(yield* store.rotateRefresh("first-refresh", "client-a", next, minutes(5)), {
        _tag: "Rotated",
        resource: "https://t.example/mcp",
        scope: "tenders"
      })
      assert.isTrue(Option.isSome(yield* store.accessToken("second-access", minutes(6))))
      assert.deepStrictEqual(
        yield* store.rotateRefresh("first-refresh", "client-a", pair("third", minutes(7)), minutes(7)),
        { _tag: "Reused" }
      )
      assert.isTrue(Option.isNone(yield* store.accessToken("second-access", minutes(8))))
    }).pipe(Effect.provide(memoryStore))
  )

  it.effect("an expired access token is refused, and only the owner revokes a grant", () =>
    Effect.gen(function* () {
      const { account, grantId, store } = yield* connected
      assert.isTrue(Option.isNone(yield* store.accessToken("first-access", minutes(61))))
      const other = yield* (yield* AccountStore).saveAccount({
        email: "x@example.com",
        plan: "pro",
        monthlyLimit: null
      })
      assert.isFalse(yield* store.revokeGrant(other.id, grantId, minutes(2)))
      assert.isTrue(yield* store.revokeGrant(account.id, grantId, minutes(2)))
      assert.isFalse(yield* store.revokeGrant(account.id, grantId, minutes(3)))
    }).pipe(Effect.provide(memoryStore))
  )
})
