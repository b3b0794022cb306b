import {
  AccountId,
  AlertId,
  AlertReason,
  AlertStore,
  type CreatedAlert,
  type DeliveryPlanner,
  Filters,
  type NewAlert,
  newWebhookSecret,
  type PlannedDelivery,
  type TenderFacts,
  TenderId,
  WatchlistId
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { isFieldLexeme, termOfLexeme } from "./SearchSql.ts"
import { at, jsonColumn, lapsedTender, openTender, utc, UtcInstant } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

const WatchlistRow = Schema.Struct({
  id: WatchlistId,
  accountId: AccountId,
  createdAt: UtcInstant,
  filters: jsonColumn(Filters)
})
const EventRow = Schema.Struct({
  id: Schema.NumberFromString,
  tenderId: TenderId,
  change: Schema.Literals(["new", "amended", "cancelled", "closed", "updated"]),
  createdAt: UtcInstant
})
const FactsRow = Schema.Struct({ ...TenderRow.fields, lexemes: Schema.Array(Schema.String) })
const OpenRow = Schema.Struct({
  ...TenderRow.fields,
  watchlistId: WatchlistId,
  watchlistName: Schema.String,
  reason: AlertReason,
  alertCreatedAt: UtcInstant
})
const InsertedRow = Schema.Struct({
  id: AlertId,
  watchlistId: WatchlistId,
  tenderId: TenderId,
  reason: AlertReason,
  createdAt: UtcInstant
})
const RecipientRow = Schema.Struct({
  watchlistId: WatchlistId,
  watchlistName: Schema.String,
  accountId: AccountId,
  accountEmail: Schema.String,
  email: Schema.Boolean,
  webhook: Schema.NullOr(Schema.String)
})

const toFacts = (rows: ReadonlyArray<typeof FactsRow.Type>): ReadonlyArray<TenderFacts> =>
  rows.map(({ lexemes, ...record }) => ({ record, lexemes: new Set(lexemes.filter(isFieldLexeme).map(termOfLexeme)) }))

const deliveryRow = (delivery: PlannedDelivery) => ({
  channel: delivery.channel,
  account_id: delivery.accountId,
  watchlist_id: delivery.watchlistId,
  target: delivery.channel === "email" ? delivery.digest.to : delivery.url,
  webhook_id: delivery.channel === "webhook" ? delivery.webhookId : null,
  payload: delivery.channel === "email" ? delivery.digest : { body: delivery.body }
})

/**
 * An account's alerts on open tenders, from now on in deadline order through the alerts' own copy of it
 * (`alerts_account_deadline_idx`), each alert's tender read by its key and checked open (`OFFSET 0` keeps the
 * planner from joining every open tender instead): the rows read follow the limit, not the account's history.
 */
export const openAlertsStatement = (
  sql: PgClient.PgClient,
  request: { readonly accountId: string; readonly now: DateTime.Utc; readonly limit: number }
) => sql`SELECT ${sql.literal(tenderColumns)},
    a.watchlist_id::text AS "watchlistId", w.name AS "watchlistName", a.reason,
    ${sql.literal(utc("a.created_at"))} AS "alertCreatedAt"
  FROM alerts a JOIN watchlists w ON w.id = a.watchlist_id
  CROSS JOIN LATERAL (SELECT t.* FROM tenders t WHERE t.id = a.tender_id AND ${openTender(sql, request.now)} OFFSET 0) t
  WHERE a.account_id = ${request.accountId}::uuid AND a.deadline_sort > ${at(sql, request.now)}
  ORDER BY a.deadline_sort, a.created_at DESC, a.id DESC LIMIT ${request.limit}`

/**
 * AlertStore on PostgreSQL: alerts unique on (watchlist, tender, reason, version), an evaluation cursor, and the
 * outbox rows of the deliveries core planned, written in the alerts' transaction.
 */
export const PgAlertStore = Layer.effect(
  AlertStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const factsSelect = sql.literal(`${tenderColumns}, tsvector_to_array(t.search_vec) AS lexemes`)

    const watchlists = SqlSchema.findAll({
      Request: Schema.Void,
      Result: WatchlistRow,
      execute: () => sql`SELECT id::text AS id, account_id::text AS "accountId",
          ${sql.literal(utc("created_at"))} AS "createdAt", filters FROM watchlists`
    })(undefined).pipe(Effect.orDie, Effect.withSpan("PgAlertStore.watchlists"))

    const watchlistsVersion = sql<{ v: string }>`SELECT version::text AS v FROM watchlist_version WHERE id = 1`.pipe(
      Effect.map((rows) => rows[0]?.v ?? "0"),
      Effect.orDie
    )

    const cursor = sql<{ n: string }>`SELECT last_event_id::text AS n FROM alert_cursor WHERE name = 'events'`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.orDie
    )

    // In the order of the ids, not of the text `id` selected (a bare `ORDER BY id` names that text, which puts
    // 100000 before 99999): the evaluator's cursor moves to a batch's last event and would skip those it passed.
    const events = SqlSchema.findAll({
      Request: Schema.Struct({ after: Schema.Number, limit: Schema.Number }),
      Result: EventRow,
      execute: ({ after, limit }) => sql`SELECT id::text AS id, tender_id AS "tenderId", change,
          ${sql.literal(utc("created_at"))} AS "createdAt"
        FROM tender_events WHERE id > ${after} ORDER BY tender_events.id LIMIT ${limit}`
    })
    const eventsAfter = Effect.fn("PgAlertStore.eventsAfter")(
      (after: number, limit: number) => events({ after, limit }),
      Effect.orDie
    )

    const factsOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: FactsRow,
      execute: (ids) => sql`SELECT ${factsSelect} FROM tenders t WHERE t.id IN ${sql.in(ids)}`
    })
    const facts = Effect.fn("PgAlertStore.facts")(function* (tenderIds: ReadonlyArray<TenderId>) {
      return tenderIds.length === 0 ? [] : toFacts(yield* factsOf(tenderIds))
    }, Effect.orDie)

    const expiring = Effect.fn("PgAlertStore.expiring")(function* (now: DateTime.Utc, until: DateTime.Utc) {
      const rows = yield* sql`SELECT ${factsSelect} FROM tenders t
        WHERE ${openTender(sql, now)} AND ${lapsedTender(sql, until)}`
      return toFacts(yield* Schema.decodeUnknownEffect(Schema.Array(FactsRow))(rows))
    }, Effect.orDie)

    const recipientsOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: RecipientRow,
      execute: (ids) => sql`SELECT w.id::text AS "watchlistId", w.name AS "watchlistName", acc.id::text AS "accountId",
          acc.email AS "accountEmail", w.email, CASE WHEN w.webhook_disabled_at IS NULL THEN w.webhook END AS webhook
        FROM watchlists w JOIN accounts acc ON acc.id = w.account_id WHERE w.id IN ${sql.in(ids)}`
    })
    const tendersOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: TenderRow,
      execute: (ids) => sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE t.id IN ${sql.in(ids)}`
    })

    /** The alerts an insert created, with their watchlists' recipients and their tenders. */
    const createdOf = Effect.fnUntraced(function* (inserted: ReadonlyArray<typeof InsertedRow.Type>) {
      const recipients = new Map(
        (yield* recipientsOf([...new Set(inserted.map((a) => a.watchlistId))])).map((r) => [r.watchlistId, r])
      )
      const tenders = new Map((yield* tendersOf([...new Set(inserted.map((a) => a.tenderId))])).map((t) => [t.id, t]))
      return inserted.flatMap((row): ReadonlyArray<CreatedAlert> => {
        const recipient = recipients.get(row.watchlistId)
        const tender = tenders.get(row.tenderId)
        if (recipient === undefined || tender === undefined) return []
        return [{ id: row.id, reason: row.reason, createdAt: row.createdAt, tender, recipient }]
      })
    })

    const enqueue = Effect.fnUntraced(function* (planned: ReadonlyArray<PlannedDelivery>, now: string) {
      if (planned.length === 0) return
      // Each account gets its signing secret once, before its first webhook is queued.
      const signing = new Set(planned.flatMap((d) => (d.channel === "webhook" ? [d.accountId] : [])))
      for (const accountId of signing) {
        yield* sql`UPDATE accounts SET webhook_secret = COALESCE(webhook_secret, ${newWebhookSecret()})
          WHERE id = ${accountId}::uuid`
      }
      yield* sql`INSERT INTO deliveries
          (channel, account_id, watchlist_id, target, webhook_id, payload, next_attempt_at, created_at)
        SELECT d.channel, d.account_id::uuid, d.watchlist_id::uuid, d.target, d.webhook_id, d.payload,
          ${now}::timestamptz, ${now}::timestamptz
        FROM jsonb_to_recordset(${sql.json(planned.map(deliveryRow))})
          AS d(channel text, account_id text, watchlist_id text, target text, webhook_id text, payload jsonb)`
    })

    const insert = Effect.fn("PgAlertStore.insert")(function* (
      alerts: ReadonlyArray<NewAlert>,
      eventCursor: number | null,
      plan: DeliveryPlanner
    ) {
      const now = DateTime.formatIso(yield* DateTime.now)
      return yield* Effect.gen(function* () {
        let created = 0
        if (alerts.length > 0) {
          const rows = yield* sql`INSERT INTO alerts
              (watchlist_id, account_id, tender_id, reason, version, created_at, deadline_sort)
              SELECT a.watchlist_id::uuid, a.account_id::uuid, a.tender_id, a.reason, a.version, ${now}::timestamptz,
                COALESCE((SELECT t.deadline_sort FROM tenders t WHERE t.id = a.tender_id), '-infinity')
              FROM jsonb_to_recordset(${sql.json(
                alerts.map((a) => ({
                  watchlist_id: a.watchlistId,
                  account_id: a.accountId,
                  tender_id: a.tenderId,
                  reason: a.reason,
                  version: a.version
                }))
              )}) AS a(watchlist_id text, account_id text, tender_id text, reason text, version text)
              WHERE EXISTS (SELECT 1 FROM watchlists w WHERE w.id = a.watchlist_id::uuid)
              ON CONFLICT (watchlist_id, tender_id, reason, version) DO NOTHING
              RETURNING id::text AS id, watchlist_id::text AS "watchlistId", tender_id AS "tenderId", reason,
                ${sql.literal(utc("created_at"))} AS "createdAt"`
          const inserted = yield* Schema.decodeUnknownEffect(Schema.Array(InsertedRow))(rows)
          created = inserted.length
          if (created > 0) yield* enqueue(plan(yield* createdOf(inserted)), now)
        }
        if (eventCursor !== null) {
          // The tenders of the events the cursor passes may have a new deadline: their alerts' copy follows.
          yield* sql`UPDATE alerts a SET deadline_sort = t.deadline_sort
              FROM tenders t
              WHERE t.id IN (SELECT e.tender_id FROM tender_events e
                  WHERE e.id <= ${eventCursor} AND e.id > COALESCE(
                    (SELECT c.last_event_id FROM alert_cursor c WHERE c.name = 'events'), 0))
                AND a.tender_id = t.id AND a.deadline_sort IS DISTINCT FROM t.deadline_sort`
          yield* sql`INSERT INTO alert_cursor (name, last_event_id) VALUES ('events', ${eventCursor})
              ON CONFLICT (name) DO UPDATE
              SET last_event_id = GREATEST(alert_cursor.last_event_id, EXCLUDED.last_event_id)`
        }
        return created
      }).pipe(sql.withTransaction)
    }, Effect.orDie)

    const openOf = SqlSchema.findAll({
      Request: Schema.Struct({ accountId: Schema.String, now: Schema.DateTimeUtc, limit: Schema.Number }),
      Result: OpenRow,
      execute: (request) => openAlertsStatement(sql, request)
    })
    const open = Effect.fn("PgAlertStore.open")(function* (accountId: AccountId, now: DateTime.Utc, limit: number) {
      const rows = yield* openOf({ accountId, now, limit })
      return rows.map(({ alertCreatedAt, reason, watchlistId, watchlistName, ...tender }) => ({
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
