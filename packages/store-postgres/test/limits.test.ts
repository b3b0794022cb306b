import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { requestSignIn, SignInMailer, signInLimits, takeUse } from "@tenders/core"
import { Duration, Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import { backends } from "./backends.ts"

// The background sender is not under test here: the links and their queued mails are read from the store.
const noSender = Layer.succeed(SignInMailer, SignInMailer.of({ wake: Effect.void }))

const ask = (email: string, client: string) =>
  requestSignIn({
    email,
    client,
    signUp: "open",
    language: "en",
    linkUrl: (token) => `https://tenders.example/dashboard/sign-in/link?token=${token}`
  }).pipe(Effect.provide(noSender), Effect.exit)

const pendingMails = (email: string) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM sign_in_links
      WHERE email = ${email} AND mail_state = 'pending'`
  ).pipe(Effect.map((rows) => rows[0]?.n ?? -1))

const all = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

for (const [name, makeLayer] of backends()) {
  describe(`limits kept in the store on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("30 concurrent sign-in requests for one address from one client send exactly 5 links", () =>
        Effect.gen(function* () {
          const exits = yield* all(Array.from({ length: 30 }, () => ask("raced@example.com", "192.0.2.10")))
          assert.strictEqual(exits.filter(Exit.isSuccess).length, signInLimits.perAddressAndClient.limit)
          assert.strictEqual(yield* pendingMails("raced@example.com"), signInLimits.perAddressAndClient.limit)
        })
      )

      it.effect("40 concurrent sign-in requests from one client for 40 addresses send exactly 20 links", () =>
        Effect.gen(function* () {
          const exits = yield* all(Array.from({ length: 40 }, (_, i) => ask(`many-${i}@example.com`, "192.0.2.20")))
          assert.strictEqual(exits.filter(Exit.isSuccess).length, signInLimits.perClient.limit)
          const sql = yield* PgClient.PgClient
          const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM sign_in_links
            WHERE email LIKE 'many-%@example.com' AND mail_state = 'pending'`
          assert.strictEqual(rows[0]?.n, signInLimits.perClient.limit)
        })
      )

      it.effect("others' requests for an address never refuse its owner's, up to the address's ceiling", () =>
        Effect.gen(function* () {
          const victim = "victim@example.com"
          // One stranger uses up what it may ask for this address: the owner, from elsewhere, still gets a link.
          yield* all(Array.from({ length: 8 }, () => ask(victim, "198.51.100.1")))
          assert.isTrue(Exit.isSuccess(yield* ask(victim, "203.0.113.7")))
          // Strangers from many clients together reach the ceiling: then the address gets no more mail an hour.
          const ceiling = signInLimits.perAddress.limit
          const perClient = signInLimits.perAddressAndClient.limit
          for (let client = 2; (client - 1) * perClient < ceiling; client++) {
            yield* all(Array.from({ length: perClient }, () => ask(victim, `198.51.100.${client}`)))
          }
          assert.isTrue(Exit.isFailure(yield* ask(victim, "203.0.113.8")))
          assert.strictEqual(yield* pendingMails(victim), ceiling)
        })
      )

      it.effect("a limit's bucket refills by the store's buckets on the Effect clock", () =>
        Effect.gen(function* () {
          const use = { name: "test-refill", limit: 2, window: Duration.minutes(10) }
          assert.deepStrictEqual(
            yield* Effect.all([takeUse(use, "k"), takeUse(use, "k"), takeUse(use, "k")]),
            [0, 0, 300]
          )
          assert.strictEqual(yield* takeUse(use, "other"), 0)
          yield* TestClock.adjust(Duration.minutes(4))
          assert.strictEqual(yield* takeUse(use, "k"), 60)
          yield* TestClock.adjust(Duration.minutes(1))
          assert.strictEqual(yield* takeUse(use, "k"), 0)
          assert.strictEqual(yield* takeUse(use, "k"), 300)
        }).pipe(Effect.provide(TestClock.layer()))
      )
    })
  })
}
