import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  type Account,
  createWatchlist,
  evaluateAlerts,
  ingestNotices,
  listAlerts,
  type ParsedNotice,
  TenderStore,
  type WatchlistInput
} from "../src/index.ts"
import { MemoryDb, makeRecord } from "../src/testing/index.ts"
import { account, atStart, inDays, world } from "./support.ts"

const ferry = (id: string, days: number) =>
  makeRecord({ id, title: "Ferry terminal maintenance", cpvCodes: ["45241000"], deadline: inDays(days) })

const watch = (owner: Account, input: Partial<WatchlistInput> = {}) =>
  createWatchlist({ name: "Ferries", filters: { q: "ferry" }, ...input }, owner)

const notice = (kind: ParsedNotice["kind"], days: number, version: number): ParsedNotice => ({
  kind,
  record: ferry("ted-100-2026", days),
  procedureKey: "proc-100",
  version,
  reason: null
})

describe("evaluateAlerts", () => {
  it.effect("raises `new` once for a tender ingested after the watchlist, and plans one digest and one webhook", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* watch(owner, { channels: { webhook: "https://hooks.example.com/tenders" } })
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 10), makeRecord({ id: "ted-2-2026", title: "Desks" })])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      assert.strictEqual(yield* evaluateAlerts(), 0)
      const db = yield* MemoryDb
      assert.deepStrictEqual(
        db.deliveries.map((d) => d.payload.channel),
        ["webhook", "email"]
      )
      const listed = (yield* listAlerts(owner.id)).alerts
      assert.deepStrictEqual(
        listed.map((a) => [a.reason, a.tender.id]),
        [["new", "ted-1-2026"]]
      )
      // One wire Alert everywhere: the same object, to the second, in the API, the webhook and the e-mail.
      const [webhook, email] = db.deliveries.map((d) => d.payload)
      const body: unknown = webhook?.channel === "webhook" ? JSON.parse(webhook.body) : {}
      assert.deepStrictEqual(body, { type: "alert.created", timestamp: listed[0]?.createdAt, data: listed[0] })
      assert.deepStrictEqual(email?.channel === "email" ? email.digest.alerts : [], listed)
      assert.match(listed[0]?.createdAt ?? "", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/u)
    }).pipe(Effect.provide(world()))
  )

  it.effect("raises no `new` for a tender that changed before the watchlist was created", () =>
    Effect.gen(function* () {
      yield* atStart
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 10)])
      yield* TestClock.adjust("1 second")
      yield* watch(yield* account("pro@example.com", "pro"))
      assert.strictEqual(yield* evaluateAlerts(), 0)
    }).pipe(Effect.provide(world()))
  )

  it.effect("raises `amended` once per amendment, and nothing for a cancellation", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* watch(owner)
      yield* TestClock.adjust("1 minute")
      yield* ingestNotices([{ notices: [notice("original", 10, 1)], rejected: [] }])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      yield* ingestNotices([{ notices: [notice("amendment", 12, 2)], rejected: [] }])
      yield* ingestNotices([{ notices: [notice("amendment", 12, 2)], rejected: [] }])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      yield* ingestNotices([{ notices: [notice("amendment", 14, 3)], rejected: [] }])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      yield* ingestNotices([{ notices: [notice("cancellation", 14, 4)], rejected: [] }])
      assert.strictEqual(yield* evaluateAlerts(), 0)
      const reasons = (yield* MemoryDb).alerts.map((a) => a.reason)
      assert.deepStrictEqual(reasons, ["new", "amended", "amended"])
    }).pipe(Effect.provide(world()))
  )

  it.effect("raises `deadline-24h` once when a matching open tender enters its last day", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* watch(owner)
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 1.25)])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      yield* TestClock.adjust("5 hours")
      assert.strictEqual(yield* evaluateAlerts(), 0)
      yield* TestClock.adjust("2 hours")
      assert.strictEqual(yield* evaluateAlerts(), 1)
      assert.strictEqual(yield* evaluateAlerts(), 0)
      yield* TestClock.adjust("1 day")
      assert.strictEqual((yield* listAlerts(owner.id)).alerts.length, 0)
    }).pipe(Effect.provide(world()))
  )

  it.effect("raises both `new` and `deadline-24h` for a new matching tender with less than 24 hours left", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* watch(owner)
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 0.5)])
      assert.strictEqual(yield* evaluateAlerts(), 2)
      const reasons = (yield* listAlerts(owner.id)).alerts.map((a) => a.reason).toSorted()
      assert.deepStrictEqual(reasons, ["deadline-24h", "new"])
      // Both alerts of one run go in one digest.
      const db = yield* MemoryDb
      assert.strictEqual(db.deliveries.length, 1)
    }).pipe(Effect.provide(world()))
  )

  it.effect("queues nothing for a watchlist with e-mail off and no webhook, but lists its alerts", () =>
    Effect.gen(function* () {
      yield* atStart
      const owner = yield* account("pro@example.com", "pro")
      yield* watch(owner, { channels: { email: false } })
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 10)])
      assert.strictEqual(yield* evaluateAlerts(), 1)
      assert.strictEqual((yield* MemoryDb).deliveries.length, 0)
      assert.strictEqual((yield* listAlerts(owner.id)).alerts.length, 1)
    }).pipe(Effect.provide(world()))
  )

  it.effect("shows an account only its own alerts", () =>
    Effect.gen(function* () {
      yield* atStart
      const mine = yield* account("me@example.com", "pro")
      const theirs = yield* account("them@example.com", "pro")
      yield* watch(mine)
      yield* TestClock.adjust("1 minute")
      yield* (yield* TenderStore).upsert([ferry("ted-1-2026", 10)])
      yield* evaluateAlerts()
      assert.strictEqual((yield* listAlerts(mine.id)).alerts.length, 1)
      const none = yield* listAlerts(theirs.id)
      assert.deepStrictEqual(none.alerts, [])
      assert.include(none.hint, "No open alerts")
    }).pipe(Effect.provide(world()))
  )
})
