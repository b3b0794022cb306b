import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import {
  AccountId,
  AccountStore,
  AlertStore,
  DeliveryStore,
  SourceRunStore,
  SourceStatusStore,
  TenderId,
  TenderStore,
  type WatchlistId,
  WatchlistStore
} from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { DateTime, Effect } from "effect"
import { openAlertsStatement } from "../src/PgAlertStore.ts"
import { summariesStatement } from "../src/PgSourceStatusStore.ts"
import { backends } from "./backends.ts"
import { explainAnalyzed, rowsRead } from "./plans.ts"

// What a store's history must neither slow nor misorder: the sources' health over a year of runs, lists ordered by
// ids past a digit boundary, an account's open alerts over its history. One store per backend, the tests in order.

/** A run of `source` started `startedHoursAgo`, finished (ok or not) `finished.hoursAgo`, or never finished. */
const run = (source: string, startedHoursAgo: number, finished?: { readonly hoursAgo: number; readonly ok: boolean }) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`INSERT INTO source_runs (source, started_at, finished_at, ok)
      VALUES (${source}, now() - make_interval(hours => ${startedHoursAgo}),
        now() - ${finished === undefined ? null : finished.hoursAgo}::int * interval '1 hour', ${finished?.ok ?? null})`
  )

/** What the summary says of each source, as epoch seconds rounded down (or null), in the order of its codes. */
const summarised = Effect.gen(function* () {
  const summaries = yield* (yield* SourceStatusStore).summaries
  const seconds = (at: DateTime.Utc | null) => (at === null ? null : Math.floor(DateTime.toEpochMillis(at) / 1000))
  return summaries.map((summary) => ({
    code: summary.code,
    lastSuccessAt: seconds(summary.lastSuccessAt),
    lastFailureAt: seconds(summary.lastFailureAt),
    runningSince: seconds(summary.runningSince)
  }))
})

/**
 * The summary by its definition: every run of each source grouped (what the statement read before the indexes), a
 * run that never finished counted as running only if nothing of its source finished after it started.
 */
const byDefinition = Effect.flatMap(
  PgClient.PgClient,
  (sql) => sql<{
    readonly code: string
    readonly lastSuccessAt: number | null
    readonly lastFailureAt: number | null
    readonly runningSince: number | null
  }>`SELECT r.source AS code,
      floor(extract(epoch FROM max(r.finished_at) FILTER (WHERE r.ok)))::int AS "lastSuccessAt",
      floor(extract(epoch FROM max(r.finished_at) FILTER (WHERE NOT r.ok)))::int AS "lastFailureAt",
      floor(extract(epoch FROM max(r.started_at) FILTER (WHERE r.finished_at IS NULL
        AND r.started_at > COALESCE(l.done, '-infinity'))))::int AS "runningSince"
    FROM source_runs r
    LEFT JOIN (SELECT source, max(finished_at) AS done FROM source_runs GROUP BY source) l ON l.source = r.source
    GROUP BY r.source ORDER BY r.source`
)

const account = AccountId.make("00000000-0000-4000-8000-0000000000a1")

/** Moves a table's id sequence so that its next ids cross from five digits to six (99,996 … 100,005). */
const nearDigitBoundary = (sequence: string) =>
  Effect.flatMap(PgClient.PgClient, (sql) => sql`SELECT setval(${sequence}, 99995)`)

// The statements select `id::text AS id`: a bare `ORDER BY id` names that text, not the number, and sorts 100000
// before 99996. Each list below crosses that boundary.

/** An account with one watchlist (no channel: nothing is delivered). */
const watcher = (email: string) =>
  Effect.gen(function* () {
    const account = yield* (yield* AccountStore).saveAccount({ email, plan: "pro", monthlyLimit: null })
    const input = { name: "Roads", filters: { q: "road" }, channels: { email: false } }
    const watchlistId = yield* (yield* WatchlistStore).create(account.id, input, 10)
    if (watchlistId === undefined) return yield* Effect.die("no watchlist")
    return { accountId: account.id, watchlistId }
  })

/** Alerts `new` for each of the tenders, raised now, with no event passed. */
const raise = (
  owner: { readonly accountId: AccountId; readonly watchlistId: WatchlistId },
  tenderIds: ReadonlyArray<string>
) =>
  Effect.flatMap(AlertStore, (store) =>
    store.insert(
      tenderIds.map((tenderId) => ({ ...owner, tenderId: TenderId.make(tenderId), reason: "new", version: "" })),
      null,
      () => []
    )
  )

const openIds = (accountId: AccountId) =>
  Effect.gen(function* () {
    const open = yield* (yield* AlertStore).open(accountId, yield* DateTime.now, 50)
    return open.map((alert) => alert.tender.id)
  })

/** The newest event's id: what the evaluator's cursor passes once it read every event. */
const lastEvent = Effect.flatMap(PgClient.PgClient, (sql) =>
  sql<{ readonly id: number }>`SELECT COALESCE(max(id), 0)::int AS id FROM tender_events`.pipe(
    Effect.map((rows) => rows[0]?.id ?? 0)
  )
)

for (const [name, makeLayer] of backends()) {
  describe(`a store's history on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("each source's last success, last failure and the run still going, as the history defines them", () =>
        Effect.gen(function* () {
          assert.deepStrictEqual(yield* summarised, [])
          // ted: a success, a later failure, then a run still going.
          yield* run("ted", 4, { hoursAgo: 3, ok: true })
          yield* run("ted", 3, { hoursAgo: 2, ok: false })
          yield* run("ted", 1)
          // gnumner: a run that crashed (never finished), superseded by a later run that finished.
          yield* run("gnumner", 6)
          yield* run("gnumner", 5, { hoursAgo: 4, ok: true })
          const now = Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000)
          const summaries = yield* summarised
          assert.deepStrictEqual(
            summaries.map((summary) => summary.code),
            ["gnumner", "ted"]
          )
          const [gnumner, ted] = summaries
          assert.closeTo(ted?.lastSuccessAt ?? 0, now - 3 * 3600, 60)
          assert.closeTo(ted?.lastFailureAt ?? 0, now - 2 * 3600, 60)
          assert.closeTo(ted?.runningSince ?? 0, now - 3600, 60)
          assert.closeTo(gnumner?.lastSuccessAt ?? 0, now - 4 * 3600, 60)
          assert.strictEqual(gnumner?.lastFailureAt, null)
          assert.strictEqual(gnumner?.runningSince, null)
          assert.deepStrictEqual(summaries, [...(yield* byDefinition)])
        })
      )

      it.effect("reads a few index entries per source, not a year of runs, and says what the whole history says", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          // A year of hourly runs of eaeu, one in seven failed, a few never finished, and one going now.
          yield* sql`INSERT INTO source_runs (source, started_at, finished_at, ok)
            SELECT 'eaeu', now() - make_interval(hours => i),
              CASE WHEN i % 997 = 0 THEN NULL ELSE now() - make_interval(hours => i) + interval '2 minutes' END,
              CASE WHEN i % 997 = 0 THEN NULL ELSE i % 7 <> 0 END
            FROM generate_series(2, 8760) AS i`
          yield* run("eaeu", 0)
          yield* sql`ANALYZE source_runs`
          assert.deepStrictEqual(yield* summarised, [...(yield* byDefinition)])
          const read = rowsRead(yield* explainAnalyzed(sql, summariesStatement(sql)), "source_runs")
          assert.isAbove(read, 0)
          assert.isAtMost(read, 60)
        })
      )

      it.effect("the alert evaluator's events come in id order, so its cursor skips none", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("tender_events_id_seq")
          yield* sql`INSERT INTO tender_events (tender_id, change, created_at)
            SELECT 'ted-' || i || '-2026', 'new', now() FROM generate_series(1, 10) AS i`
          const store = yield* AlertStore
          const first = yield* store.eventsAfter(99_995, 4)
          assert.deepStrictEqual(
            first.map((event) => event.id),
            [99_996, 99_997, 99_998, 99_999]
          )
          const rest = yield* store.eventsAfter(first.at(-1)?.id ?? 0, 100)
          assert.deepStrictEqual(
            rest.map((event) => event.id),
            [100_000, 100_001, 100_002, 100_003, 100_004, 100_005]
          )
        })
      )

      it.effect("the newest deliveries come first", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("deliveries_id_seq")
          yield* sql`INSERT INTO deliveries (channel, account_id, target, payload, next_attempt_at, created_at)
            SELECT 'email', ${account}::uuid, 'ops@example.com', '{}'::jsonb, now(), now()
            FROM generate_series(1, 10)`
          const newest = yield* (yield* DeliveryStore).list(3, account)
          assert.deepStrictEqual(
            newest.map((delivery) => delivery.id),
            [100_005, 100_004, 100_003]
          )
        })
      )

      it.effect("a source's runs started at the same instant (after every other run) come newest id first", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          yield* nearDigitBoundary("source_runs_id_seq")
          yield* sql`INSERT INTO source_runs (source, started_at)
            SELECT 'gnumner', now() + interval '1 day' FROM generate_series(1, 6)`
          const runs = yield* (yield* SourceRunStore).recentRuns("gnumner", 3)
          assert.deepStrictEqual(
            runs.map((run) => run.id),
            [100_001, 100_000, 99_999]
          )
        })
      )

      it.effect("nearest deadline first, none last, and in the new order once a deadline's change is evaluated", () =>
        Effect.gen(function* () {
          const owner = yield* watcher("deadlines@example.com")
          const tenders = yield* TenderStore
          const later = makeRecord({ id: "ted-610001-2026", deadline: isoFromNow(5) })
          yield* tenders.upsert([
            later,
            makeRecord({ id: "ted-610002-2026", deadline: isoFromNow(3) }),
            makeRecord({ id: "ted-610003-2026", deadline: null }),
            makeRecord({ id: "ted-610004-2026", deadline: isoFromNow(-1) })
          ])
          yield* raise(owner, ["ted-610001-2026", "ted-610002-2026", "ted-610003-2026", "ted-610004-2026"])
          assert.deepStrictEqual(yield* openIds(owner.accountId), [
            "ted-610002-2026",
            "ted-610001-2026",
            "ted-610003-2026"
          ])
          // The later tender's deadline is brought forward; the evaluator reads its event and moves its cursor.
          yield* tenders.upsert([{ ...later, deadline: isoFromNow(1), title: `${later.title} (amended)` }])
          yield* (yield* AlertStore).insert([], yield* lastEvent, () => [])
          assert.deepStrictEqual(yield* openIds(owner.accountId), [
            "ted-610001-2026",
            "ted-610002-2026",
            "ted-610003-2026"
          ])
          // Closed, it is no longer listed, whatever its alert's copy of the deadline says.
          yield* tenders.upsert([{ ...later, deadline: isoFromNow(1), status: "closed" }])
          assert.deepStrictEqual(yield* openIds(owner.accountId), ["ted-610002-2026", "ted-610003-2026"])
        })
      )

      it.effect("reads rows in proportion to the limit, not the account's history of alerts", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const owner = yield* watcher("history@example.com")
          // A year of alerts on tenders whose deadline passed, and 60 on open ones.
          const past = Array.from({ length: 1_200 }, (_, i) =>
            makeRecord({ id: `ted-${620_000 + i}-2026`, deadline: isoFromNow(-2 - i / 10) })
          )
          const open = Array.from({ length: 60 }, (_, i) =>
            makeRecord({ id: `ted-${630_000 + i}-2026`, deadline: isoFromNow(1 + i) })
          )
          yield* (yield* TenderStore).upsert([...past, ...open])
          yield* raise(
            owner,
            [...past, ...open].map((tender) => tender.id)
          )
          yield* sql`ANALYZE alerts`
          yield* sql`ANALYZE tenders`
          const listed = yield* openIds(owner.accountId)
          assert.deepStrictEqual(listed.slice(0, 3), ["ted-630000-2026", "ted-630001-2026", "ted-630002-2026"])
          assert.strictEqual(listed.length, 50)
          const request = { accountId: owner.accountId, now: yield* DateTime.now, limit: 50 }
          const root = yield* explainAnalyzed(sql, openAlertsStatement(sql, request))
          assert.isAtMost(rowsRead(root, "alerts"), 120)
          assert.isAtMost(rowsRead(root, "tenders"), 120)
        })
      )
    })
  })
}
