import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  AccountStore,
  completeSignIn,
  type DeliveryOutcome,
  Notifier,
  requestSignIn,
  sendSignInMails,
  sessionAccount,
  SignInMailer,
  type SignInMessage,
  signInLimits,
  type SignUp
} from "../src/index.ts"
import { memoryStore, RecordedNotifications, refusedAddressProbes, SignInMailerManual } from "../src/testing/index.ts"
import { account, atStart, world } from "./support.ts"

const ask = (email: string, signUp: SignUp = "open", client = "192.0.2.1") =>
  requestSignIn({ email, client, signUp, language: "en", linkUrl: (token) => `https://t.example/link?token=${token}` })

/** The token of the n-th link sent, once the queued mails are sent. */
const sentToken = (n: number) =>
  Effect.gen(function* () {
    yield* sendSignInMails()
    const log = yield* RecordedNotifications
    return new URL(log.signIns[n]?.url ?? "https://x/").searchParams.get("token") ?? ""
  })

const tagOf = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (result) => (result._tag === "Success" ? "Success" : result.failure._tag))

const signInWorld = () => Layer.merge(world(), SignInMailerManual)

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
      assert.strictEqual((yield* completeSignIn(yield* sentToken(1), "open")).account.id, created.id)
    }).pipe(Effect.provide(signInWorld()))
  )

  it.effect("with sign-up closed, only existing accounts get a link and sign in", () =>
    Effect.gen(function* () {
      yield* atStart
      yield* account("known@example.com", "pro")
      yield* ask("stranger@example.com", "closed")
      yield* sendSignInMails()
      const log = yield* RecordedNotifications
      assert.strictEqual(log.signIns.length, 0)
      yield* ask("known@example.com", "closed")
      assert.strictEqual((yield* completeSignIn(yield* sentToken(0), "closed")).account.plan, "pro")
      // A link asked while sign-up was open does not create an account once it is closed.
      yield* ask("late@example.com", "open")
      assert.strictEqual(yield* tagOf(completeSignIn(yield* sentToken(1), "closed")), "SignUpClosed")
      assert.isTrue(Option.isNone(yield* (yield* AccountStore).findAccount("late@example.com")))
    }).pipe(Effect.provide(signInWorld()))
  )

  it.effect("limits the links per address and client, per client and per address, and says when it is malformed", () =>
    Effect.gen(function* () {
      yield* atStart
      for (let i = 0; i < 5; i++) yield* ask("busy@example.com")
      assert.strictEqual(yield* tagOf(ask("busy@example.com")), "SignInThrottled")
      // Another client asking for the same address is not refused by the first one's requests.
      assert.strictEqual(yield* tagOf(ask("busy@example.com", "open", "198.51.100.7")), "Success")
      for (let i = 0; i < 15; i++) yield* ask(`person${i}@example.com`)
      assert.strictEqual(yield* tagOf(ask("one-more@example.com")), "SignInThrottled") // 20 from this client
      assert.strictEqual(yield* tagOf(ask("one-more@example.com", "open", "198.51.100.7")), "Success")
      yield* TestClock.adjust("61 minutes")
      assert.strictEqual(yield* tagOf(ask("busy@example.com")), "Success")
      assert.strictEqual(yield* tagOf(ask("not-an-address")), "InvalidInput")
    }).pipe(Effect.provide(signInWorld()))
  )

  it.effect("an address's ceiling holds across clients, and the wait it gives is when one more is allowed", () =>
    Effect.gen(function* () {
      yield* atStart
      const { perAddress, perAddressAndClient } = signInLimits
      for (let client = 0; client * perAddressAndClient.limit < perAddress.limit; client++) {
        for (let i = 0; i < perAddressAndClient.limit; i++)
          yield* ask("popular@example.com", "open", `10.0.0.${client}`)
      }
      const refused = yield* Effect.flip(ask("popular@example.com", "open", "10.0.1.1"))
      assert.strictEqual(refused._tag, "SignInThrottled")
      // One more every window / limit: two minutes for 30 an hour.
      assert.strictEqual(refused._tag === "SignInThrottled" ? refused.retryAfter : 0, 120)
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual(yield* tagOf(ask("popular@example.com", "open", "10.0.1.1")), "Success")
    }).pipe(Effect.provide(signInWorld()))
  )

  it.effect("a request with several addresses, or control or format characters, is refused and sends nothing", () =>
    Effect.gen(function* () {
      yield* atStart
      for (const email of refusedAddressProbes) {
        assert.strictEqual(yield* tagOf(ask(email)), "InvalidInput", JSON.stringify(email.slice(0, 60)))
      }
      yield* sendSignInMails()
      assert.strictEqual((yield* RecordedNotifications).signIns.length, 0)
    }).pipe(Effect.provide(signInWorld()))
  )
})

/** A notifier whose sign-in mails wait for `release`, and that says when it was asked (`asked`). */
const heldNotifier = (asked: Deferred.Deferred<SignInMessage>, release: Deferred.Deferred<DeliveryOutcome>) =>
  Layer.succeed(
    Notifier,
    Notifier.of({
      sendEmail: () => Effect.succeed({ _tag: "Delivered" }),
      sendWebhook: () => Effect.succeed({ _tag: "Delivered" }),
      sendSignIn: (message) => Effect.andThen(Deferred.succeed(asked, message), Deferred.await(release))
    })
  )

describe("the background sender of sign-in mails", () => {
  it.effect("the request answers before its mail is sent; the sender sends it at once", () =>
    Effect.gen(function* () {
      yield* atStart
      const asked = yield* Deferred.make<SignInMessage>()
      const release = yield* Deferred.make<DeliveryOutcome>()
      yield* Effect.gen(function* () {
        // The mail transport hangs: the answer must not wait for it (it told which addresses have an account).
        assert.strictEqual(yield* ask("waiting@example.com"), "waiting@example.com")
        const message = yield* Deferred.await(asked)
        assert.strictEqual(message.to, "waiting@example.com")
        assert.strictEqual(message.minutes, 15)
        yield* Deferred.succeed(release, { _tag: "Delivered" })
      }).pipe(
        Effect.provide(
          SignInMailer.layer("1 minute").pipe(
            Layer.provideMerge(Layer.mergeAll(memoryStore, heldNotifier(asked, release)))
          )
        )
      )
    })
  )

  it.effect("a mail the transport could not send now is sent again at the next pass, until its link expires", () =>
    Effect.gen(function* () {
      yield* atStart
      const outcomes: Array<DeliveryOutcome> = []
      const tries: Array<string> = []
      const flaky = Layer.succeed(
        Notifier,
        Notifier.of({
          sendEmail: () => Effect.succeed({ _tag: "Delivered" }),
          sendWebhook: () => Effect.succeed({ _tag: "Delivered" }),
          sendSignIn: (message) =>
            Effect.sync(() => {
              tries.push(message.to)
              return outcomes.shift() ?? { _tag: "Retry", reason: "SMTP: 421 busy" }
            })
        })
      )
      yield* Effect.gen(function* () {
        outcomes.push({ _tag: "Retry", reason: "SMTP: 421 busy" }, { _tag: "Delivered" })
        yield* ask("flaky@example.com")
        assert.deepStrictEqual(yield* sendSignInMails(), { attempted: 1, sent: 0 })
        assert.deepStrictEqual(yield* sendSignInMails(), { attempted: 0, sent: 0 }) // waits 5 s
        yield* TestClock.adjust("5 seconds")
        assert.deepStrictEqual(yield* sendSignInMails(), { attempted: 1, sent: 1 })
        // Another that never goes: tried at 0 s, 5 s, 35 s, 2 min 35 s, 7 min 35 s, then its link expires.
        yield* ask("never@example.com")
        for (const wait of ["0 seconds", "5 seconds", "30 seconds", "2 minutes", "5 minutes", "8 minutes"] as const) {
          yield* TestClock.adjust(wait)
          yield* sendSignInMails()
        }
        assert.strictEqual(tries.filter((to) => to === "never@example.com").length, 5)
        yield* TestClock.adjust("10 minutes")
        yield* sendSignInMails()
        assert.strictEqual(tries.filter((to) => to === "never@example.com").length, 5)
      }).pipe(Effect.provide(Layer.mergeAll(memoryStore, flaky, SignInMailerManual)))
    })
  )
})
