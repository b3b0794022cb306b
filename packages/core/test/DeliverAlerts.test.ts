import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { createWatchlist, deliverDue, evaluateAlerts, retryDelays, TenderStore } from "../src/index.ts"
import { MemoryDb, makeRecord, RecordedNotifications } from "../src/testing/index.ts"
import { account, atStart, inDays, world } from "./support.ts"

/** A pro account with a webhook watchlist on "ferry", and one matching tender evaluated into one alert. */
const oneWebhookAlert = Effect.gen(function* () {
  yield* atStart
  const owner = yield* account("pro@example.com", "pro")
  const input = { name: "Ferries", filters: { q: "ferry" }, channels: { email: false, webhook: "https://h.example/x" } }
  yield* createWatchlist(input, owner)
  yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026", title: "Ferry repairs", deadline: inDays(9) })])
  assert.strictEqual(yield* evaluateAlerts(), 1)
})

const seconds = Effect.map(DateTime.now, (now) => Math.floor(DateTime.toEpochMillis(now) / 1000))

describe("deliverDue", () => {
  it.effect(
    "retries a failing webhook on the backoff table, same webhook-id, each attempt signed at its own time",
    () =>
      Effect.gen(function* () {
        yield* oneWebhookAlert
        const log = yield* RecordedNotifications
        const sentAt: Array<number> = []
        const attempt = Effect.gen(function* () {
          sentAt.push(yield* seconds)
          return yield* deliverDue()
        })
        assert.deepStrictEqual(yield* attempt, { attempted: 1, delivered: 0 })
        yield* TestClock.adjust("4 seconds")
        assert.deepStrictEqual(yield* deliverDue(), { attempted: 0, delivered: 0 })
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual(yield* attempt, { attempted: 1, delivered: 0 })
        yield* TestClock.adjust("5 minutes")
        assert.deepStrictEqual(yield* attempt, { attempted: 1, delivered: 1 })
        yield* TestClock.adjust("1 day")
        assert.deepStrictEqual(yield* deliverDue(), { attempted: 0, delivered: 0 })
        assert.deepStrictEqual(
          log.webhooks.map((call) => call.timestamp),
          sentAt
        )
        assert.strictEqual(new Set(log.webhooks.map((call) => call.webhookId)).size, 1)
        assert.match(log.webhooks[0]?.webhookId ?? "", /^msg_/u)
        const [delivery] = (yield* MemoryDb).deliveries
        assert.deepStrictEqual([delivery?.status, delivery?.attempts], ["delivered", 3])
      }).pipe(
        Effect.provide(world({ webhook: (_, n) => (n < 2 ? { _tag: "Retry", reason: "503" } : { _tag: "Delivered" }) }))
      )
  )

  it.effect("gives up after the last delay of the table, with the reason", () =>
    Effect.gen(function* () {
      yield* oneWebhookAlert
      for (const delay of retryDelays) {
        yield* deliverDue()
        yield* TestClock.adjust(delay)
      }
      yield* deliverDue()
      const [delivery] = (yield* MemoryDb).deliveries
      assert.strictEqual(delivery?.status, "failed")
      assert.strictEqual(delivery?.attempts, retryDelays.length + 1)
      assert.strictEqual(delivery?.lastError, `gave up after ${retryDelays.length + 1} attempts: timeout`)
      assert.strictEqual((yield* RecordedNotifications).webhooks.length, retryDelays.length + 1)
    }).pipe(Effect.provide(world({ webhook: () => ({ _tag: "Retry", reason: "timeout" }) })))
  )

  it.effect("disables the webhook on 410 Gone, so the next alerts of that watchlist queue no webhook", () =>
    Effect.gen(function* () {
      yield* oneWebhookAlert
      yield* deliverDue()
      const db = yield* MemoryDb
      assert.deepStrictEqual([db.deliveries[0]?.status, db.watchlists[0]?.webhookDisabled], ["failed", true])
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-2-2026", title: "Ferry docks", deadline: inDays(9) })])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      assert.strictEqual(db.deliveries.length, 1)
    }).pipe(Effect.provide(world({ webhook: () => ({ _tag: "Failed", reason: "410 Gone", disable: true }) })))
  )

  it.effect("does not hand a leased delivery to a second worker before the lease ends", () =>
    Effect.gen(function* () {
      yield* oneWebhookAlert
      const db = yield* MemoryDb
      const delivery = db.deliveries[0]
      if (delivery === undefined) return assert.fail("no delivery")
      // A worker claimed it and crashed mid-attempt: the lease stands for two minutes.
      delivery.leaseUntil = DateTime.addDuration(yield* DateTime.now, "2 minutes")
      assert.deepStrictEqual(yield* deliverDue(), { attempted: 0, delivered: 0 })
      yield* TestClock.adjust("2 minutes")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* deliverDue(), { attempted: 1, delivered: 1 })
    }).pipe(Effect.provide(world()))
  )
})
