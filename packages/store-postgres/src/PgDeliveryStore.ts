import { AccountId, Alert, type ClaimedDelivery, DeliveryStore, WatchlistId } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { jsonColumn, utc, UtcInstant } from "./Sql.ts"

const EmailPayload = Schema.Struct({ to: Schema.String, watchlistName: Schema.String, alerts: Schema.Array(Alert) })
const WebhookPayload = Schema.Struct({ body: Schema.String })
const ClaimRow = Schema.Struct({
  id: Schema.NumberFromString,
  channel: Schema.Literals(["email", "webhook"]),
  attempts: Schema.Number,
  watchlistId: Schema.NullOr(WatchlistId),
  target: Schema.String,
  webhookId: Schema.NullOr(Schema.String),
  secret: Schema.NullOr(Schema.String),
  payload: jsonColumn(Schema.Union([EmailPayload, WebhookPayload]))
})
const InfoRow = Schema.Struct({
  id: Schema.NumberFromString,
  channel: Schema.Literals(["email", "webhook"]),
  target: Schema.String,
  status: Schema.Literals(["pending", "delivered", "failed"]),
  attempts: Schema.Number,
  nextAttemptAt: Schema.NullOr(UtcInstant),
  lastError: Schema.NullOr(Schema.String),
  createdAt: UtcInstant
})

const BacklogRow = Schema.Struct({ depth: Schema.Number, oldestDueAt: Schema.NullOr(UtcInstant) })

const toClaimed = (row: typeof ClaimRow.Type): ReadonlyArray<ClaimedDelivery> => {
  const p = row.payload
  if (row.channel === "email" && "alerts" in p)
    return [{ id: row.id, channel: "email", attempts: row.attempts, digest: p }]
  if (
    row.channel === "webhook" &&
    "body" in p &&
    row.webhookId !== null &&
    row.secret !== null &&
    row.watchlistId !== null
  ) {
    return [
      {
        id: row.id,
        channel: "webhook",
        attempts: row.attempts,
        watchlistId: row.watchlistId,
        url: row.target,
        secret: row.secret,
        webhookId: row.webhookId,
        body: p.body
      }
    ]
  }
  return []
}

/** The outbox on PostgreSQL: due rows are leased with FOR UPDATE SKIP LOCKED, so replicas never share one. */
export const PgDeliveryStore = Layer.effect(
  DeliveryStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const now = Effect.map(DateTime.now, DateTime.formatIso)

    const claimDue = Effect.fn("PgDeliveryStore.claimDue")(function* (
      at: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) {
      const rows = yield* sql`UPDATE deliveries d SET lease_until = ${DateTime.formatIso(leaseUntil)}::timestamptz
        FROM (SELECT id FROM deliveries
              WHERE status = 'pending' AND next_attempt_at <= ${DateTime.formatIso(at)}::timestamptz
                AND (lease_until IS NULL OR lease_until < ${DateTime.formatIso(at)}::timestamptz)
              ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE d.id = due.id
        RETURNING d.id::text AS id, d.channel, d.attempts, d.watchlist_id::text AS "watchlistId", d.target,
          d.webhook_id AS "webhookId", (SELECT webhook_secret FROM accounts a WHERE a.id = d.account_id) AS secret,
          d.payload`
      const decoded = yield* Schema.decodeUnknownEffect(Schema.Array(ClaimRow))(rows)
      return decoded.flatMap(toClaimed)
    }, Effect.orDie)

    const markDelivered = Effect.fn("PgDeliveryStore.markDelivered")(function* (id: number) {
      yield* sql`UPDATE deliveries
        SET status = 'delivered', attempts = attempts + 1, delivered_at = ${yield* now}::timestamptz,
          lease_until = NULL, last_error = NULL
        WHERE id = ${id}`
    }, Effect.orDie)

    const reschedule = Effect.fn("PgDeliveryStore.reschedule")(function* (
      id: number,
      next: DateTime.Utc,
      error: string
    ) {
      yield* sql`UPDATE deliveries
        SET attempts = attempts + 1, next_attempt_at = ${DateTime.formatIso(next)}::timestamptz,
          lease_until = NULL, last_error = ${error}
        WHERE id = ${id}`
    }, Effect.orDie)

    const markFailed = Effect.fn("PgDeliveryStore.markFailed")(function* (
      id: number,
      error: string,
      disableWebhookOf: WatchlistId | null
    ) {
      yield* sql`UPDATE deliveries
        SET status = 'failed', attempts = attempts + 1, lease_until = NULL, last_error = ${error}
        WHERE id = ${id}`
      if (disableWebhookOf !== null) {
        yield* sql`UPDATE watchlists
          SET webhook_disabled_at = COALESCE(webhook_disabled_at, ${yield* now}::timestamptz)
          WHERE id = ${disableWebhookOf}::uuid`
      }
    }, Effect.orDie)

    const ownedBy = (accountId: string | undefined) =>
      accountId === undefined ? sql.literal("") : sql`AND account_id = ${accountId}::uuid`

    // Newest first by the ids, not by the text `id` selected (a bare `ORDER BY id` names that text).
    const newest = SqlSchema.findAll({
      Request: Schema.Struct({ limit: Schema.Number, accountId: Schema.optionalKey(AccountId) }),
      Result: InfoRow,
      execute: ({ limit, accountId }) => sql`SELECT id::text AS id, channel, target, status, attempts,
          CASE WHEN status = 'pending' THEN ${sql.literal(utc("next_attempt_at"))} END AS "nextAttemptAt",
          last_error AS "lastError", ${sql.literal(utc("created_at"))} AS "createdAt"
        FROM deliveries WHERE true ${ownedBy(accountId)} ORDER BY deliveries.id DESC LIMIT ${limit}`
    })
    const list = Effect.fn("PgDeliveryStore.list")(
      (limit: number, accountId?: AccountId) => newest(accountId === undefined ? { limit } : { limit, accountId }),
      Effect.orDie
    )

    const retry = Effect.fn("PgDeliveryStore.retry")(function* (id: number, at: DateTime.Utc, accountId?: AccountId) {
      const rows = yield* sql`UPDATE deliveries
        SET status = 'pending', next_attempt_at = ${DateTime.formatIso(at)}::timestamptz, lease_until = NULL
        WHERE id = ${id} AND status = 'failed' ${ownedBy(accountId)} RETURNING id`
      return rows.length > 0
    }, Effect.orDie)

    const backlog = Effect.fn("PgDeliveryStore.backlog")(function* (at: DateTime.Utc) {
      const rows = yield* sql`SELECT depth, ${sql.literal(utc("oldest"))} AS "oldestDueAt"
        FROM (SELECT count(*)::int AS depth,
            min(next_attempt_at) FILTER (WHERE next_attempt_at <= ${DateTime.formatIso(at)}::timestamptz) AS oldest
          FROM deliveries WHERE status = 'pending') backlog`
      return yield* Schema.decodeUnknownEffect(BacklogRow)(rows[0])
    }, Effect.orDie)

    return DeliveryStore.of({ claimDue, markDelivered, reschedule, markFailed, list, retry, backlog })
  })
)
