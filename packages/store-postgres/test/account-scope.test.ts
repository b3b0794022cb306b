import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { type AccountId, AccountStore, DeliveryStore } from "@tenders/core"
import { DateTime, Effect, Option } from "effect"
import { Statement } from "effect/sql"
import { backends } from "./backends.ts"

/** A failed e-mail delivery of `accountId` put straight into the outbox; its id. */
const failedDelivery = Effect.fnUntraced(function* (accountId: AccountId, target: string) {
  const sql = yield* PgClient.PgClient
  const rows = yield* sql<{ id: string }>`INSERT INTO deliveries
      (channel, account_id, target, payload, status, attempts, next_attempt_at, last_error, created_at)
    VALUES ('email', ${accountId}::uuid, ${target}, ${sql.json({})}, 'failed', 8, now(), '550 mailbox unavailable',
      now())
    RETURNING id::text AS id`
  return Number(rows[0]?.id)
})

/** A Pro account of its own (the plan's limit) with a REST key. */
const proWithKey = Effect.fnUntraced(function* (email: string) {
  const accounts = yield* AccountStore
  const account = yield* accounts.saveAccount({ email, plan: "pro", monthlyLimit: null })
  return { account, ...(yield* accounts.createKey(account.id, "rest")) }
})

for (const [name, makeLayer] of backends()) {
  describe(`what one account sees on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(
        "counts each allowed call on its UTC day with its month, exactly under concurrency; refusals nowhere",
        () =>
          Effect.gen(function* () {
            const accounts = yield* AccountStore
            const account = yield* accounts.saveAccount({ email: "days@example.com", plan: "pro", monthlyLimit: 5 })
            const other = yield* accounts.saveAccount({ email: "days-2@example.com", plan: "pro", monthlyLimit: null })
            const decisions = yield* Effect.forEach(
              Array.from({ length: 30 }),
              () => accounts.consumeCall(account.id, "2026-11-05", 5),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(decisions.filter((d) => d.allowed).length, 5)
            yield* accounts.addPack(account.id, "2026-11")
            assert.isTrue((yield* accounts.consumeCall(account.id, "2026-11-30", 5)).allowed)
            assert.isTrue((yield* accounts.consumeCall(account.id, "2026-10-31", 5)).allowed)
            assert.isTrue((yield* accounts.consumeCall(account.id, "2026-12-01", 5)).allowed)
            assert.isTrue((yield* accounts.consumeCall(other.id, "2026-11-05", 5)).allowed)
            assert.deepStrictEqual(yield* accounts.dailyUsage(account.id, "2026-11"), [
              { day: "2026-11-05", calls: 5 },
              { day: "2026-11-30", calls: 1 }
            ])
            assert.strictEqual((yield* accounts.usage(account.id, "2026-11")).calls, 6)
            assert.deepStrictEqual(yield* accounts.dailyUsage(account.id, "2026-10"), [{ day: "2026-10-31", calls: 1 }])
            assert.deepStrictEqual(yield* accounts.dailyUsage(other.id, "2026-11"), [{ day: "2026-11-05", calls: 1 }])
            assert.deepStrictEqual(yield* accounts.dailyUsage(other.id, "2026-12"), [])
          })
      )

      it.effect(
        "authenticates and counts a call in one statement: once the month has its row, exactly under concurrency",
        () =>
          Effect.gen(function* () {
            const accounts = yield* AccountStore
            const limits = { free: 3, pro: 7, business: 50 }
            const { account, key, keyId } = yield* proWithKey("one@example.com")
            const call = () => accounts.authenticateAndCount(key, "rest", "2026-11-06", limits)
            assert.isTrue(Option.isNone(yield* accounts.authenticateAndCount(`${key}x`, "rest", "2026-11-06", limits)))
            assert.isTrue(Option.isNone(yield* accounts.authenticateAndCount(key, "mcp", "2026-11-06", limits)))
            // The month's first call: no row to count in yet, so not counted (the caller charges it).
            assert.deepStrictEqual(yield* call(), Option.some({ account, counted: Option.none() }))
            assert.isTrue((yield* accounts.consumeCall(account.id, "2026-11-06", 7)).allowed)
            // The plan's limit, 7: 6 more of 20 concurrent calls are counted; the others are left to be charged.
            const decisions = yield* Effect.forEach(Array.from({ length: 20 }), call, { concurrency: "unbounded" })
            const counted = decisions.flatMap((found) =>
              Option.isSome(found) && Option.isSome(found.value.counted) ? [found.value.counted.value] : []
            )
            assert.strictEqual(counted.length, 6)
            assert.deepStrictEqual(
              counted.map((d) => d.used).toSorted((a, b) => a - b),
              [2, 3, 4, 5, 6, 7]
            )
            assert.isTrue(counted.every((d) => d.allowed && d.limit === 7))
            assert.deepStrictEqual(yield* accounts.dailyUsage(account.id, "2026-11"), [{ day: "2026-11-06", calls: 7 }])
            // A pack adds 10,000 to the limit the statement counts against; the account's own limit comes first.
            yield* accounts.addPack(account.id, "2026-11")
            const withPack = yield* call()
            assert.deepStrictEqual(
              Option.map(withPack, (found) => found.counted),
              Option.some(Option.some({ allowed: true, used: 8, limit: 10_007 }))
            )
            const own = yield* accounts.saveAccount({ email: "one@example.com", plan: undefined, monthlyLimit: 8 })
            const ownLimit = yield* call()
            assert.deepStrictEqual(
              Option.map(ownLimit, (found) => found.counted),
              Option.some(Option.some({ allowed: true, used: 9, limit: 10_008 }))
            )
            assert.strictEqual(own.monthlyLimit, 8)
            // A revoked key is unknown.
            assert.isTrue(yield* accounts.revokeKey(keyId))
            assert.isTrue(Option.isNone(yield* call()))
            assert.strictEqual((yield* accounts.usage(account.id, "2026-11")).calls, 9)
          })
      )

      it.effect(
        "counts the calls of one key asked for while its statement runs in the next one, each its own count",
        () =>
          Effect.gen(function* () {
            const accounts = yield* AccountStore
            const limits = { free: 3, pro: 100, business: 100 }
            const { account, key } = yield* proWithKey("turn@example.com")
            const { account: other, key: otherKey } = yield* proWithKey("turn-2@example.com")
            for (const id of [account.id, other.id])
              assert.isTrue((yield* accounts.consumeCall(id, "2026-11-07", 100)).allowed)
            // The statements that count a call, as the counters' pool is asked to run them.
            const counting: Array<string> = []
            const record: Statement.Transformer = (statement) =>
              Effect.sync(() => {
                const [text] = statement.compile()
                if (text.includes("UPDATE usage_months")) counting.push(text)
                return statement
              })
            const calls = [...Array.from({ length: 8 }, () => key), otherKey, otherKey]
            const found = yield* Effect.forEach(
              calls,
              (secret) => accounts.authenticateAndCount(secret, "rest", "2026-11-07", limits),
              { concurrency: "unbounded" }
            ).pipe(Effect.provideService(Statement.CurrentTransformer, record))
            const used = (of: typeof account) =>
              found.flatMap((row) =>
                Option.isSome(row) && row.value.account.id === of.id && Option.isSome(row.value.counted)
                  ? [row.value.counted.value.used]
                  : []
              )
            assert.deepStrictEqual(
              used(account).toSorted((a, b) => a - b),
              [2, 3, 4, 5, 6, 7, 8, 9]
            )
            assert.deepStrictEqual(
              used(other).toSorted((a, b) => a - b),
              [2, 3]
            )
            // Each key's first call goes at once; its others, asked for while that one runs, share the next statement.
            assert.strictEqual(counting.length, 4)
            assert.deepStrictEqual(yield* accounts.dailyUsage(account.id, "2026-11"), [{ day: "2026-11-07", calls: 9 }])
            assert.strictEqual((yield* accounts.usage(other.id, "2026-11")).calls, 3)
          })
      )

      it.effect("lists and retries one account's deliveries; another account's id is not found and left alone", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const deliveries = yield* DeliveryStore
          const owner = yield* accounts.saveAccount({ email: "out-a@example.com", plan: "pro", monthlyLimit: null })
          const intruder = yield* accounts.saveAccount({ email: "out-b@example.com", plan: "pro", monthlyLimit: null })
          const own = yield* failedDelivery(owner.id, "out-a@example.com")
          const foreign = yield* failedDelivery(intruder.id, "out-b@example.com")
          const now = yield* DateTime.now
          assert.deepStrictEqual(
            (yield* deliveries.list(10, owner.id)).map((d) => [d.id, d.target, d.status, d.lastError]),
            [[own, "out-a@example.com", "failed", "550 mailbox unavailable"]]
          )
          assert.includeMembers(
            (yield* deliveries.list(10)).map((d) => d.id),
            [own, foreign]
          )
          assert.isFalse(yield* deliveries.retry(foreign, now, owner.id))
          assert.strictEqual((yield* deliveries.list(10, intruder.id))[0]?.status, "failed")
          assert.isTrue(yield* deliveries.retry(own, now, owner.id))
          assert.strictEqual((yield* deliveries.list(10, owner.id))[0]?.status, "pending")
          assert.isFalse(yield* deliveries.retry(own, now, owner.id))
          assert.isTrue(yield* deliveries.retry(foreign, now))
        })
      )
    })
  })
}
