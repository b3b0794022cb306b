import { AlertReason, AlertStore, Filters, type NewAlert, type TenderFacts } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { enqueueDeliveries } from "./Outbox.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

const Token = Schema.Struct({ exact: Schema.Array(Schema.String), prefix: Schema.Array(Schema.String) })
const WatchlistRow = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  name: Schema.String,
  createdAt: Schema.String,
  filters: Schema.Union([Filters, Schema.fromJsonString(Filters)]),
  tokens: Schema.Union([Schema.Array(Token), Schema.fromJsonString(Schema.Array(Token))])
})
const EventRow = Schema.Struct({
  id: Schema.NumberFromString,
  tenderId: Schema.String,
  change: Schema.String,
  createdAt: Schema.String
})
const FactsRow = Schema.Struct({ ...TenderRow.fields, lexemes: Schema.Array(Schema.String) })
const OpenRow = Schema.Struct({
  ...TenderRow.fields,
  watchlistId: Schema.String,
  watchlistName: Schema.String,
  reason: AlertReason,
  alertCreatedAt: Schema.String
})

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
const toFacts = (rows: ReadonlyArray<typeof FactsRow.Type>): ReadonlyArray<TenderFacts> =>
  rows.map(({ lexemes, ...record }) => ({ record, lexemes: new Set(lexemes) }))

/** AlertStore on PostgreSQL: alerts unique on (watchlist, tender, reason, version), an evaluation cursor. */
export const PgAlertStore = Layer.effect(
  AlertStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const factsSelect = `${tenderColumns}, tsvector_to_array(t.search_vec) AS lexemes`

    const watchlists =
      sql`SELECT id::text AS id, account_id::text AS "accountId", name, ${sql.literal(iso("created_at"))} AS "createdAt",
        filters, match_tokens AS tokens FROM watchlists`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(WatchlistRow))),
        Effect.orDie,
        Effect.withSpan("PgAlertStore.watchlists")
      )

    const watchlistsVersion = sql<{ v: string }>`SELECT version::text AS v FROM watchlist_version WHERE id = 1`.pipe(
      Effect.map((rows) => rows[0]?.v ?? "0"),
      Effect.orDie
    )

    const cursor = sql<{ n: string }>`SELECT last_event_id::text AS n FROM alert_cursor WHERE name = 'events'`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.orDie
    )

    const eventsAfter = Effect.fn("PgAlertStore.eventsAfter")(function* (eventId: number, limit: number) {
      const rows =
        yield* sql`SELECT id::text AS id, tender_id AS "tenderId", change, ${sql.literal(iso("created_at"))} AS "createdAt"
        FROM tender_events WHERE id > ${eventId} ORDER BY id LIMIT ${limit}`
      return yield* Schema.decodeUnknownEffect(Schema.Array(EventRow))(rows)
    }, Effect.orDie)

    const facts = Effect.fn("PgAlertStore.facts")(function* (tenderIds: ReadonlyArray<string>) {
      if (tenderIds.length === 0) return []
      const rows = yield* sql`SELECT ${sql.literal(factsSelect)} FROM tenders t WHERE t.id IN ${sql.in(tenderIds)}`
      return toFacts(yield* Schema.decodeUnknownEffect(Schema.Array(FactsRow))(rows))
    }, Effect.orDie)

    const expiring = Effect.fn("PgAlertStore.expiring")(function* (now: DateTime.Utc, until: DateTime.Utc) {
      const rows = yield* sql`SELECT ${sql.literal(factsSelect)} FROM tenders t
        WHERE t.status IN ('open', 'amended') AND t.deadline_sort > ${DateTime.formatIso(now)}::timestamptz
          AND t.deadline_sort <= ${DateTime.formatIso(until)}::timestamptz`
      return toFacts(yield* Schema.decodeUnknownEffect(Schema.Array(FactsRow))(rows))
    }, Effect.orDie)

    const insert = Effect.fn("PgAlertStore.insert")(function* (
      alerts: ReadonlyArray<NewAlert>,
      eventCursor: number | null
    ) {
      const now = DateTime.formatIso(yield* DateTime.now)
      return yield* Effect.gen(function* () {
        let inserted = 0
        if (alerts.length > 0) {
          const rows = yield* sql`INSERT INTO alerts (watchlist_id, account_id, tender_id, reason, version, created_at)
            SELECT a.watchlist_id::uuid, a.account_id::uuid, a.tender_id, a.reason, a.version, ${now}::timestamptz
            FROM jsonb_to_recordset(${sql.json(alerts.map((a) => ({ watchlist_id: a.watchlistId, account_id: a.accountId, tender_id: a.tenderId, reason: a.reason, version: a.version })))})
              AS a(watchlist_id text, account_id text, tender_id text, reason text, version text)
            WHERE EXISTS (SELECT 1 FROM watchlists w WHERE w.id = a.watchlist_id::uuid)
            ON CONFLICT (watchlist_id, tender_id, reason, version) DO NOTHING RETURNING id::text AS id`
          inserted = rows.length
          yield* enqueueDeliveries(
            sql,
            rows.map((r) => String(r["id"])),
            now
          )
        }
        if (eventCursor !== null) {
          yield* sql`INSERT INTO alert_cursor (name, last_event_id) VALUES ('events', ${eventCursor})
            ON CONFLICT (name) DO UPDATE SET last_event_id = GREATEST(alert_cursor.last_event_id, EXCLUDED.last_event_id)`
        }
        return inserted
      }).pipe(sql.withTransaction)
    }, Effect.orDie)

    const open = Effect.fn("PgAlertStore.open")(function* (accountId: string, now: DateTime.Utc, limit: number) {
      const rows =
        yield* sql`SELECT ${sql.literal(tenderColumns)}, a.watchlist_id::text AS "watchlistId", w.name AS "watchlistName",
          a.reason, ${sql.literal(iso("a.created_at"))} AS "alertCreatedAt"
        FROM alerts a JOIN watchlists w ON w.id = a.watchlist_id JOIN tenders t ON t.id = a.tender_id
        WHERE a.account_id = ${accountId}::uuid AND t.status IN ('open', 'amended') AND t.deadline_sort > ${DateTime.formatIso(now)}::timestamptz
        ORDER BY t.deadline_sort, a.created_at DESC, a.id DESC LIMIT ${limit}`
      const decoded = yield* Schema.decodeUnknownEffect(Schema.Array(OpenRow))(rows)
      return decoded.map(({ alertCreatedAt, reason, watchlistId, watchlistName, ...tender }) => ({
        watchlistId,
        watchlistName,
        reason,
        createdAt: alertCreatedAt,
        tender
      }))
    }, Effect.orDie)

    return AlertStore.of({ watchlists, watchlistsVersion, cursor, eventsAfter, facts, expiring, insert, open })
  })
)
