import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Metric, Stream } from "effect"
import { TestClock } from "effect/testing"
import {
  AccountStore,
  chargeCall,
  createWatchlist,
  deliverDue,
  evaluateAlerts,
  type FeedPage,
  observeStore,
  type ParsedNotice,
  requestSignIn,
  requireFilterPlan,
  runSource,
  searchClass,
  searchTenders,
  sendSignInMails,
  type SourceFeed,
  SourceUnavailable,
  StorePool,
  TenderStore
} from "../src/index.ts"
import { makeRecord, SignInMailerManual } from "../src/testing/index.ts"
import { account, atStart, inDays, sample, start, world } from "./support.ts"

/** Runs a test over the in-memory world with a registry of its own: no other test's samples. */
const inWorld = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Layer.merge(world({ webhook: () => ({ _tag: "Retry", reason: "503" }) }), SignInMailerManual)),
    Effect.provideService(Metric.MetricRegistry, new Map())
  )

const notice = (n: number): ParsedNotice => ({
  kind: "original",
  record: makeRecord({ id: `ted-${n}-2026`, deadline: inDays(10) }),
  procedureKey: `proc-${n}`,
  version: null,
  reason: null
})

const feedOf = (pages: ReadonlyArray<FeedPage>, fail: boolean): SourceFeed => ({
  source: "ted",
  pages: () =>
    fail
      ? Stream.concat(
          Stream.fromIterable(pages),
          Stream.fail(new SourceUnavailable({ source: "ted", message: "HTTP 503 after retries" }))
        )
      : Stream.fromIterable(pages)
})

describe("metric families move when their event happens", () => {
  it.effect("tenders_refusals_total counts quota, plan and watchlist-limit refusals by reason", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        const capped = yield* (yield* AccountStore).saveAccount({
          email: "capped@example.com",
          plan: "pro",
          monthlyLimit: 1
        })
        yield* chargeCall(capped)
        assert.strictEqual(yield* sample("tenders_refusals_total", { reason: "quota_exceeded" }), undefined)
        yield* Effect.flip(chargeCall(capped))
        assert.strictEqual(yield* sample("tenders_refusals_total", { reason: "quota_exceeded" }), 1)

        yield* Effect.flip(requireFilterPlan({ cpv: ["45"] }, "free"))
        assert.strictEqual(yield* sample("tenders_refusals_total", { reason: "plan_required" }), 1)

        const free = yield* account("free@example.com", "free")
        for (const name of ["a", "b", "c"]) yield* createWatchlist({ name, filters: { q: "ferry" } }, free)
        assert.strictEqual(yield* sample("tenders_refusals_total", { reason: "limit_reached" }), undefined)
        yield* Effect.flip(createWatchlist({ name: "d", filters: { q: "ferry" } }, free))
        assert.strictEqual(yield* sample("tenders_refusals_total", { reason: "limit_reached" }), 1)
      })
    )
  )

  it.effect("tenders_search_duration_seconds records each search in its query class", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        yield* (yield* TenderStore).upsert([
          makeRecord({ id: "ted-1-2026", title: "Ferry repairs", deadline: inDays(9) })
        ])
        yield* searchTenders({ q: "ferry" }, "pro")
        yield* searchTenders({ q: "ferry repairs", countries: ["DE"] }, "pro")
        yield* searchTenders({ q: "", countries: ["DE"] }, "pro")
        const of = (kind: string, filters: string) =>
          sample("tenders_search_duration_seconds", { class: kind, filters })
        assert.deepStrictEqual(
          [yield* of("one_word", "false"), yield* of("several_words", "true"), yield* of("filters_only", "true")],
          [1, 1, 1]
        )
      })
    )
  )

  it("searchClass reads the plan: no words, approximate, corrected, one word, several words", () => {
    const plan = (clauses: number, corrections = 0) => ({
      clauses: Array.from({ length: clauses }),
      corrections: Array.from({ length: corrections })
    })
    assert.deepStrictEqual(
      [
        searchClass(plan(0), false),
        searchClass(plan(2), true),
        searchClass(plan(2, 1), false),
        searchClass(plan(1), false),
        searchClass(plan(3), false)
      ],
      ["filters_only", "approximate", "corrected", "one_word", "several_words"]
    )
  })

  it.effect("a source run counts its notices read, stored and rejected, and its outcome", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        const page: FeedPage = {
          results: [{ notices: [notice(1), notice(2)], rejected: [{ where: "item 3", reason: "no title" }] }],
          cursor: "after-2"
        }
        yield* runSource(feedOf([page], false), { owner: "a", since: null })
        const of = (outcome: string) => sample("tenders_source_notices_total", { source: "ted", outcome })
        assert.deepStrictEqual([yield* of("read"), yield* of("stored"), yield* of("rejected")], [3, 2, 1])
        assert.strictEqual(yield* sample("tenders_source_runs_total", { source: "ted", outcome: "success" }), 1)
        yield* runSource(feedOf([page], true), { owner: "a", since: null })
        assert.deepStrictEqual([yield* of("read"), yield* of("stored")], [6, 2])
        assert.strictEqual(yield* sample("tenders_source_runs_total", { source: "ted", outcome: "failure" }), 1)
      })
    )
  )

  it.effect("delivery attempts count by channel and outcome; digests and sign-in links count as mails", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        const owner = yield* account("pro@example.com", "pro")
        const channels = { email: true, webhook: "https://h.example/x" }
        yield* createWatchlist({ name: "Ferries", filters: { q: "ferry" }, channels }, owner)
        yield* (yield* TenderStore).upsert([
          makeRecord({ id: "ted-1-2026", title: "Ferry repairs", deadline: inDays(9) })
        ])
        yield* evaluateAlerts()
        yield* deliverDue()
        const attempts = (channel: string, outcome: string) =>
          sample("tenders_delivery_attempts_total", { channel, outcome })
        assert.deepStrictEqual([yield* attempts("email", "delivered"), yield* attempts("webhook", "retry")], [1, 1])
        assert.strictEqual(yield* sample("tenders_mails_total", { kind: "digest", outcome: "sent" }), 1)

        yield* requestSignIn({
          email: "someone@example.com",
          client: "192.0.2.1",
          signUp: "open",
          language: "en",
          linkUrl: (token) => `https://t.example/link?token=${token}`
        })
        yield* sendSignInMails()
        assert.strictEqual(yield* sample("tenders_mails_total", { kind: "sign_in", outcome: "sent" }), 1)
      })
    )
  )

  it.effect("the store's gauges: each source's last success and lag, the outbox's depth and oldest due age", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        yield* observeStore()
        assert.strictEqual(yield* sample("tenders_source_last_success_timestamp_seconds", { source: "ted" }), 0)
        assert.strictEqual(yield* sample("tenders_source_lag_seconds", { source: "ted" }), undefined)
        assert.deepStrictEqual(
          [yield* sample("tenders_outbox_depth"), yield* sample("tenders_outbox_oldest_due_age_seconds")],
          [0, 0]
        )

        yield* runSource(feedOf([], false), { owner: "a", since: null })
        const owner = yield* account("pro@example.com", "pro")
        const channels = { email: false, webhook: "https://h.example/x" }
        yield* createWatchlist({ name: "Ferries", filters: { q: "ferry" }, channels }, owner)
        yield* (yield* TenderStore).upsert([
          makeRecord({ id: "ted-1-2026", title: "Ferry repairs", deadline: inDays(9) })
        ])
        yield* evaluateAlerts()
        yield* TestClock.adjust("30 seconds")
        yield* observeStore()
        assert.strictEqual(
          yield* sample("tenders_source_last_success_timestamp_seconds", { source: "ted" }),
          start / 1000
        )
        assert.strictEqual(yield* sample("tenders_source_lag_seconds", { source: "ted" }), 30)
        assert.deepStrictEqual(
          [yield* sample("tenders_outbox_depth"), yield* sample("tenders_outbox_oldest_due_age_seconds")],
          [1, 30]
        )
      })
    )
  )

  it.effect("tenders_store_connections: this process's connections by state, when the store tells them", () =>
    inWorld(
      Effect.gen(function* () {
        yield* atStart
        yield* observeStore()
        assert.strictEqual(yield* sample("tenders_store_connections", { state: "in_use" }), undefined)
        const pool = StorePool.of({ usage: Effect.succeed({ inUse: 2, idle: 3 }) })
        yield* observeStore().pipe(Effect.provideService(StorePool, pool))
        assert.deepStrictEqual(
          [
            yield* sample("tenders_store_connections", { state: "in_use" }),
            yield* sample("tenders_store_connections", { state: "idle" })
          ],
          [2, 3]
        )
      })
    )
  )
})
