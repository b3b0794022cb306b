import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { AccountStore, SignInStore } from "@tenders/core"
import { DateTime, Duration, Effect, Option } from "effect"
import { hashSecret } from "../src/Secrets.ts"
import { backends } from "./backends.ts"

// Fixed instants: the store takes `now` from its callers. Every case uses its own addresses, clients and tokens.
const t0 = DateTime.makeUnsafe("2026-05-04T09:00:00Z")
const minutes = (n: number) => DateTime.addDuration(t0, Duration.minutes(n))
const days = (n: number) => DateTime.addDuration(t0, Duration.days(n))

const saveLink = Effect.fnUntraced(function* (
  token: string,
  email: string,
  client: string,
  createdAt = t0,
  ttlMinutes = 15
) {
  const expiresAt = DateTime.addDuration(createdAt, Duration.minutes(ttlMinutes))
  yield* (yield* SignInStore).saveLink({ token, email, client, createdAt, expiresAt })
})

for (const [name, makeLayer] of backends()) {
  describe(`sign-in store on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a link is used once: peeking leaves it usable, a second use finds nothing", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          yield* saveLink("once-token", "once@example.com", "10.0.0.1")
          assert.deepStrictEqual(yield* store.peekLink("once-token", minutes(1)), Option.some("once@example.com"))
          assert.deepStrictEqual(yield* store.peekLink("once-token", minutes(2)), Option.some("once@example.com"))
          assert.deepStrictEqual(yield* store.useLink("once-token", minutes(3)), Option.some("once@example.com"))
          assert.isTrue(Option.isNone(yield* store.useLink("once-token", minutes(4))))
          assert.isTrue(Option.isNone(yield* store.peekLink("once-token", minutes(4))))
        })
      )

      it.effect("of concurrent uses of one link exactly one gets its address", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          yield* saveLink("race-token", "race@example.com", "10.0.0.2")
          const uses = yield* Effect.all(
            Array.from({ length: 8 }, () => store.useLink("race-token", minutes(1))),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(uses.filter(Option.isSome).length, 1)
        })
      )

      it.effect("an expired or unknown link is refused, and the token is stored hashed", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          yield* saveLink("late-token", "late@example.com", "10.0.0.3")
          assert.isTrue(Option.isNone(yield* store.peekLink("late-token", minutes(15))))
          assert.isTrue(Option.isNone(yield* store.useLink("late-token", minutes(15))))
          assert.isTrue(Option.isNone(yield* store.useLink("late-token", minutes(60))))
          assert.isTrue(Option.isNone(yield* store.useLink("no-such-token", minutes(1))))
          const stored = yield* (yield* PgClient.PgClient)<{
            hash: string
          }>`SELECT token_hash AS hash FROM sign_in_links WHERE email = 'late@example.com'`
          assert.deepStrictEqual(
            stored.map((row) => row.hash),
            [hashSecret("late-token")]
          )
          // Within its time the link still works: the refusals above did not use it.
          assert.deepStrictEqual(yield* store.useLink("late-token", minutes(14)), Option.some("late@example.com"))
        })
      )

      it.effect("counts the links asked since an instant by address and by client", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          yield* saveLink("count-0", "count@example.com", "10.0.1.1", minutes(-61))
          yield* saveLink("count-1", "count@example.com", "10.0.1.1", t0)
          yield* saveLink("count-2", "count@example.com", "10.0.1.2", minutes(10))
          yield* saveLink("count-3", "other@example.com", "10.0.1.1", minutes(20))
          yield* saveLink("count-4", "count@example.com", "10.0.1.1", minutes(30))
          assert.deepStrictEqual(yield* store.linksSince("count@example.com", "10.0.1.1", minutes(-60)), {
            address: 3,
            client: 3
          })
          assert.deepStrictEqual(yield* store.linksSince("count@example.com", "10.0.1.1", minutes(10)), {
            address: 2,
            client: 2
          })
          assert.deepStrictEqual(yield* store.linksSince("nobody@example.com", "10.0.1.9", minutes(-60)), {
            address: 0,
            client: 0
          })
        })
      )

      it.effect("a session gives its account until it expires or ends", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          const account = yield* (yield* AccountStore).saveAccount({
            email: "session@example.com",
            plan: "pro",
            monthlyLimit: null
          })
          yield* store.createSession({ token: "session-1", accountId: account.id, createdAt: t0, expiresAt: days(14) })
          yield* store.createSession({ token: "session-2", accountId: account.id, createdAt: t0, expiresAt: days(14) })
          assert.deepStrictEqual(yield* store.sessionAccount("session-1", days(13)), Option.some(account))
          assert.isTrue(Option.isNone(yield* store.sessionAccount("session-1", days(14))))
          assert.isTrue(Option.isNone(yield* store.sessionAccount("no-such-session", days(1))))
          yield* store.endSession("session-1")
          yield* store.endSession("session-1")
          assert.isTrue(Option.isNone(yield* store.sessionAccount("session-1", days(1))))
          assert.deepStrictEqual(yield* store.sessionAccount("session-2", days(1)), Option.some(account))
        })
      )

      it.effect("a new link deletes links expired over a day before; a new session, the account's expired ones", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          // Long-lived links and sessions, so a query at an early instant tells whether the row is still there.
          yield* saveLink("old-link", "old@example.com", "10.0.2.1", days(-30), 60 * 24)
          yield* saveLink("recent-link", "recent@example.com", "10.0.2.1", days(-21), 60 * 24)
          yield* saveLink("new-link", "new@example.com", "10.0.2.2", days(-20))
          assert.isTrue(Option.isNone(yield* store.peekLink("old-link", days(-30))))
          assert.deepStrictEqual(yield* store.peekLink("recent-link", days(-21)), Option.some("recent@example.com"))

          const accounts = yield* AccountStore
          const owner = yield* accounts.saveAccount({ email: "expired@example.com", plan: "free", monthlyLimit: null })
          const other = yield* accounts.saveAccount({ email: "kept@example.com", plan: "free", monthlyLimit: null })
          yield* store.createSession({ token: "gone", accountId: owner.id, createdAt: days(-30), expiresAt: days(-20) })
          yield* store.createSession({ token: "kept", accountId: other.id, createdAt: days(-30), expiresAt: days(-20) })
          yield* store.createSession({ token: "fresh", accountId: owner.id, createdAt: days(-10), expiresAt: days(4) })
          assert.isTrue(Option.isNone(yield* store.sessionAccount("gone", days(-25))))
          assert.deepStrictEqual(yield* store.sessionAccount("kept", days(-25)), Option.some(other))
          assert.deepStrictEqual(yield* store.sessionAccount("fresh", days(-5)), Option.some(owner))
        })
      )
    })
  })
}
