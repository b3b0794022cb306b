import { type Alert, AlertReason, toCard } from "@tenders/core"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

const AlertRow = Schema.Struct({
  alertId: Schema.String,
  tenderId: Schema.String,
  accountId: Schema.String,
  accountEmail: Schema.String,
  watchlistId: Schema.String,
  watchlistName: Schema.String,
  emailOn: Schema.Boolean,
  webhook: Schema.NullOr(Schema.String),
  reason: AlertReason,
  alertCreatedAt: Schema.String
})

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

/**
 * Queues the deliveries of new alerts, inside the alerts' transaction: one e-mail digest per watchlist (when
 * its e-mail channel is on) and one signed webhook call per alert (when it has a webhook that is not disabled).
 */
export const enqueueDeliveries = (sql: PgClient.PgClient, alertIds: ReadonlyArray<string>, now: string) =>
  Effect.gen(function* () {
    if (alertIds.length === 0) return
    // Only alerts of watchlists with a channel on; each tender read and decoded once, however many alerts it has.
    const rows =
      yield* sql`SELECT a.id::text AS "alertId", a.tender_id AS "tenderId", acc.id::text AS "accountId", acc.email AS "accountEmail",
        w.id::text AS "watchlistId", w.name AS "watchlistName", w.email AS "emailOn",
        CASE WHEN w.webhook_disabled_at IS NULL THEN w.webhook END AS webhook, a.reason,
        to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "alertCreatedAt"
      FROM alerts a JOIN watchlists w ON w.id = a.watchlist_id JOIN accounts acc ON acc.id = a.account_id
      WHERE a.id IN ${sql.in(alertIds.map(Number))} AND (w.email OR (w.webhook IS NOT NULL AND w.webhook_disabled_at IS NULL))
      ORDER BY a.id`
    const decoded = yield* Schema.decodeUnknownEffect(Schema.Array(AlertRow))(rows)
    if (decoded.length === 0) return
    const tenderRows =
      yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE t.id IN ${sql.in([...new Set(decoded.map((r) => r.tenderId))])}`
    const cards = new Map<string, Alert["tender"]>(
      (yield* Schema.decodeUnknownEffect(Schema.Array(TenderRow))(tenderRows)).map((t) => [t.id, toCard(t)])
    )
    const digests = new Map<
      string,
      { readonly accountId: string; readonly to: string; readonly watchlistName: string; readonly alerts: Array<Alert> }
    >()
    const queued: Array<Record<string, unknown>> = []
    const needSecrets = new Set<string>()
    for (const row of decoded) {
      const tender = cards.get(row.tenderId)
      if (tender === undefined) continue
      const alert: Alert = {
        watchlistId: row.watchlistId,
        watchlistName: row.watchlistName,
        reason: row.reason,
        createdAt: row.alertCreatedAt,
        tender
      }
      if (row.emailOn) {
        const digest = digests.get(row.watchlistId) ?? {
          accountId: row.accountId,
          to: row.accountEmail,
          watchlistName: row.watchlistName,
          alerts: []
        }
        digest.alerts.push(alert)
        digests.set(row.watchlistId, digest)
      }
      if (row.webhook !== null) {
        needSecrets.add(row.accountId)
        queued.push({
          channel: "webhook",
          account_id: row.accountId,
          watchlist_id: row.watchlistId,
          target: row.webhook,
          webhook_id: `msg_${randomUUID()}`,
          payload: { body: JSON.stringify({ type: "alert.created", timestamp: now, data: alert }) }
        })
      }
    }
    for (const [watchlistId, digest] of digests) {
      queued.push({
        channel: "email",
        account_id: digest.accountId,
        watchlist_id: watchlistId,
        target: digest.to,
        webhook_id: null,
        payload: { to: digest.to, watchlistName: digest.watchlistName, alerts: digest.alerts }
      })
    }
    for (const accountId of needSecrets) {
      yield* sql`UPDATE accounts SET webhook_secret = COALESCE(webhook_secret, ${newWebhookSecret()}) WHERE id = ${accountId}::uuid`
    }
    if (queued.length === 0) return
    yield* sql`INSERT INTO deliveries (channel, account_id, watchlist_id, target, webhook_id, payload, next_attempt_at, created_at)
      SELECT d.channel, d.account_id::uuid, d.watchlist_id::uuid, d.target, d.webhook_id, d.payload, ${now}::timestamptz, ${now}::timestamptz
      FROM jsonb_to_recordset(${sql.json(queued)}) AS d(channel text, account_id text, watchlist_id text, target text, webhook_id text, payload jsonb)`
  })
