import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { AccountStore, completeSignIn, requestSignIn, sessionAccount, type SignUp } from "../src/index.ts"
import { RecordedNotifications } from "../src/testing/index.ts"
import { account, atStart, world } from "./support.ts"

const ask = (email: string, signUp: SignUp = "open", client = "192.0.2.1") =>
  requestSignIn({ email, client, signUp, language: "en", linkUrl: (token) => `https://t.example/link?token=${token}` })

/** The token of the n-th link sent. */
const sentToken = (n: number) =>
  Effect.gen(function* () {
    const log = yield* RecordedNotifications
    return new URL(log.signIns[n]?.url ?? "https://x/").searchParams.get("token") ?? ""
  })

const tagOf = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (result) => (result._tag === "Success" ? "Success" : result.failure._tag))

describe("sign-in by e-mail link", () => {
  it.effect("a link signs in once, within 15 minutes; the session lasts 14 days", () =>
    Effect.gen(function* () {
      yield* atStart
      yield* ask("Person@Example.com")
      const first = yield* sentToken(0)
      const { session, account: created } = yield* completeSignIn(first, "open")
      assert.strictEqual(created.email, "person@example.com")
      assert.strictEqual(created.plan, "free")
      assert.strictEqual(yield* tagOf(completeSignIn(first, "open")), "Unauthorized") // used
      yield* ask("person@example.com")
      yield* TestClock.adjust("16 minutes")
      assert.strictEqual(yield* tagOf(completeSignIn(yield* sentToken(1), "open")), "Unauthorized") // expired
      assert.strictEqual((yield* sessionAccount(session)).id, created.id)
      yield* TestClock.adjust("14 days")
      assert.strictEqual(yield* tagOf(sessionAccount(session)), "Unauthorized")
      // A second sign-in finds the same account.
      yield* ask("person@example.com")
      assert.strictEqual((yield* completeSignIn(yield* sentToken(2), "open")).account.id, created.id)
    }).pipe(Effect.provide(world()))
  )

  it.effect("with sign-up closed, only existing accounts get a link and sign in", () =>
    Effect.gen(function* () {
      yield* atStart
      yield* account("known@example.com", "pro")
      yield* ask("stranger@example.com", "closed")
      const log = yield* RecordedNotifications
      assert.strictEqual(log.signIns.length, 0)
      yield* ask("known@example.com", "closed")
      assert.strictEqual((yield* completeSignIn(yield* sentToken(0), "closed")).account.plan, "pro")
      // A link asked while sign-up was open does not create an account once it is closed.
      yield* ask("late@example.com", "open")
      assert.strictEqual(yield* tagOf(completeSignIn(yield* sentToken(1), "closed")), "Unauthorized")
      assert.isTrue(Option.isNone(yield* (yield* AccountStore).findAccount("late@example.com")))
    }).pipe(Effect.provide(world()))
  )

  it.effect("limits the links per address and per client within an hour, and says when it is malformed", () =>
    Effect.gen(function* () {
      yield* atStart
      for (let i = 0; i < 5; i++) yield* ask("busy@example.com")
      assert.strictEqual(yield* tagOf(ask("busy@example.com")), "SignInThrottled")
      assert.strictEqual(yield* tagOf(ask("busy@example.com", "open", "198.51.100.7")), "SignInThrottled")
      for (let i = 0; i < 15; i++) yield* ask(`person${i}@example.com`)
      assert.strictEqual(yield* tagOf(ask("one-more@example.com")), "SignInThrottled") // 20 from this client
      assert.strictEqual(yield* tagOf(ask("one-more@example.com", "open", "198.51.100.7")), "Success")
      yield* TestClock.adjust("61 minutes")
      assert.strictEqual(yield* tagOf(ask("busy@example.com")), "Success")
      assert.strictEqual(yield* tagOf(ask("not-an-address")), "InvalidInput")
    }).pipe(Effect.provide(world()))
  )
})
