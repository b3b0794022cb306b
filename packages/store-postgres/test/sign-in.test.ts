import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { type AccountId, AccountStore, type SignInMail, SignInStore } from "@tenders/core"
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
  createdAt = t0,
  ttlMinutes = 15,
  mail: SignInMail | undefined = undefined
) {
  const expiresAt = DateTime.addDuration(createdAt, Duration.minutes(ttlMinutes))
  yield* (yield* SignInStore).saveLink({ token, email, createdAt, expiresAt, mail })
})

for (const [name, makeLayer] of backends()) {
  describe(`sign-in store on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a link is used once: peeking leaves it usable, a second use finds nothing", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          yield* saveLink("once-token", "once@example.com")
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
          yield* saveLink("race-token", "race@example.com")
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
          yield* saveLink("late-token", "late@example.com")
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

      it.effect("a link's mail is leased once, sent, and its URL forgotten; a failed try waits its turn", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          const sql = yield* PgClient.PgClient
          const url = "https://tenders.example/dashboard/sign-in/link?token=mail-token"
          yield* saveLink("mail-token", "mail@example.com", t0, 15, { url, language: "hy" })
          yield* saveLink("quiet-token", "quiet@example.com", t0, 15, undefined)
          const claimed = yield* store.claimMails(minutes(0), minutes(2), 10)
          const mine = claimed.filter((m) => m.message.to === "mail@example.com")
          assert.deepStrictEqual(
            mine.map((m) => ({ ...m, expiresAt: DateTime.formatIso(m.expiresAt) })),
            [
              {
                id: hashSecret("mail-token"),
                attempts: 1,
                expiresAt: DateTime.formatIso(minutes(15)),
                message: { to: "mail@example.com", url, language: "hy", minutes: 15 }
              }
            ]
          )
          assert.isFalse(claimed.some((m) => m.message.to === "quiet@example.com"))
          // Leased: nobody else gets it until the lease ends.
          assert.isFalse((yield* store.claimMails(minutes(1), minutes(3), 10)).some((m) => m.id === mine[0]?.id))
          yield* store.rescheduleMail(hashSecret("mail-token"), minutes(4), "SMTP: 421 try later")
          assert.isFalse((yield* store.claimMails(minutes(3), minutes(5), 10)).some((m) => m.id === mine[0]?.id))
          const again = (yield* store.claimMails(minutes(4), minutes(6), 10)).filter((m) => m.id === mine[0]?.id)
          assert.deepStrictEqual(
            again.map((m) => m.attempts),
            [2]
          )
          yield* store.markMailSent(hashSecret("mail-token"))
          const row = yield* sql<{ state: string; url: string | null }>`SELECT mail_state AS state, mail_url AS url
            FROM sign_in_links WHERE token_hash = ${hashSecret("mail-token")}`
          assert.deepStrictEqual(row, [{ state: "sent", url: null }])
          assert.isFalse((yield* store.claimMails(minutes(10), minutes(12), 10)).some((m) => m.id === mine[0]?.id))
          // The link itself still works: sending its mail does not use it.
          assert.deepStrictEqual(yield* store.useLink("mail-token", minutes(5)), Option.some("mail@example.com"))
        })
      )

      it.effect("a mail whose link expired before it could be sent is given up and its URL forgotten", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          const sql = yield* PgClient.PgClient
          const url = "https://tenders.example/dashboard/sign-in/link?token=stale-token"
          yield* saveLink("stale-token", "stale@example.com", days(-3), 15, { url, language: "en" })
          yield* saveLink("dropped-token", "dropped@example.com", days(-3), 15, { url, language: "en" })
          assert.isFalse((yield* store.claimMails(days(-3 + 1), days(1), 10)).some((m) => m.message.url === url))
          yield* store.dropMail(hashSecret("dropped-token"), "SMTP: 550 no such user")
          const rows = yield* sql<{ state: string; url: string | null }>`SELECT mail_state AS state, mail_url AS url
            FROM sign_in_links WHERE email IN ('stale@example.com', 'dropped@example.com') ORDER BY email`
          assert.deepStrictEqual(rows, [
            { state: "failed", url: null },
            { state: "failed", url: null }
          ])
        })
      )

      it.effect("ending every session of an account leaves other accounts' sessions", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          const accounts = yield* AccountStore
          const owner = yield* accounts.saveAccount({
            email: "everywhere@example.com",
            plan: "free",
            monthlyLimit: null
          })
          const other = yield* accounts.saveAccount({
            email: "elsewhere@example.com",
            plan: "free",
            monthlyLimit: null
          })
          for (const token of ["laptop", "phone"]) {
            yield* store.createSession({ token, accountId: owner.id, createdAt: t0, expiresAt: days(14) })
          }
          yield* store.createSession({ token: "theirs", accountId: other.id, createdAt: t0, expiresAt: days(14) })
          assert.strictEqual(yield* store.endSessions(owner.id), 2)
          assert.isTrue(Option.isNone(yield* store.sessionAccount("laptop", days(1))))
          assert.isTrue(Option.isNone(yield* store.sessionAccount("phone", days(1))))
          assert.deepStrictEqual(yield* store.sessionAccount("theirs", days(1)), Option.some(other))
          assert.strictEqual(yield* store.endSessions(owner.id), 0)
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

      it.effect("a new link deletes links expired over a day before; a new session, every expired one", () =>
        Effect.gen(function* () {
          const store = yield* SignInStore
          // Long-lived links and sessions, so a query at an early instant tells whether the row is still there.
          yield* saveLink("old-link", "old@example.com", days(-30), 60 * 24)
          yield* saveLink("recent-link", "recent@example.com", days(-21), 60 * 24)
          yield* saveLink("new-link", "new@example.com", days(-20))
          assert.isTrue(Option.isNone(yield* store.peekLink("old-link", days(-30))))
          assert.deepStrictEqual(yield* store.peekLink("recent-link", days(-21)), Option.some("recent@example.com"))

          const accounts = yield* AccountStore
          const owner = yield* accounts.saveAccount({ email: "expired@example.com", plan: "free", monthlyLimit: null })
          const other = yield* accounts.saveAccount({ email: "kept@example.com", plan: "free", monthlyLimit: null })
          const session = (token: string, accountId: AccountId, createdAt: number, expiresAt: number) =>
            store.createSession({ token, accountId, createdAt: days(createdAt), expiresAt: days(expiresAt) })
          yield* session("gone", owner.id, -30, -20)
          yield* session("expired-theirs", other.id, -30, -20)
          yield* session("valid-theirs", other.id, -30, -5)
          yield* session("fresh", owner.id, -10, 4)
          // The expired ones went, the other account's too; the one still valid at the new session's start stayed.
          assert.isTrue(Option.isNone(yield* store.sessionAccount("gone", days(-25))))
          assert.isTrue(Option.isNone(yield* store.sessionAccount("expired-theirs", days(-25))))
          assert.deepStrictEqual(yield* store.sessionAccount("valid-theirs", days(-25)), Option.some(other))
          assert.deepStrictEqual(yield* store.sessionAccount("fresh", days(-5)), Option.some(owner))
        })
      )
    })
  })
}
