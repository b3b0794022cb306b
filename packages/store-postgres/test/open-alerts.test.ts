import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import {
  type AccountId,
  AccountStore,
  AlertStore,
  TenderId,
  TenderStore,
  type WatchlistId,
  WatchlistStore
} from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { DateTime, Effect } from "effect"
import { openAlertsStatement } from "../src/PgAlertStore.ts"
import { backends } from "./backends.ts"
import { explainAnalyzed, rowsRead } from "./plans.ts"

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
  describe(`an account's open alerts on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
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
          const past = Array.from({ length: 3_000 }, (_, i) =>
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
