import type { DateTime } from "effect"
import type { Alert, AlertReason } from "./Alert.ts"
import type { AccountId, AlertId, WatchlistId } from "./Ids.ts"
import { newWebhookId } from "./Secrets.ts"
import type { TenderRecord } from "./Tender.ts"
import { toCard } from "./TenderRead.ts"
import { formatUtc } from "./Time.ts"

/** The wire `Alert` (spec "Alert"), the one builder for `GET /v1/alerts`, webhooks and e-mails. */
export const toAlert = (alert: {
  readonly watchlistId: WatchlistId
  readonly watchlistName: string
  readonly reason: AlertReason
  readonly createdAt: DateTime.Utc
  readonly tender: TenderRecord
}): Alert => ({
  watchlistId: alert.watchlistId,
  watchlistName: alert.watchlistName,
  reason: alert.reason,
  createdAt: formatUtc(alert.createdAt),
  tender: toCard(alert.tender)
})

/** The Standard Webhooks body of one alert: `{"type":"alert.created","timestamp":...,"data":<Alert>}`. */
export const webhookBody = (alert: Alert): string =>
  JSON.stringify({ type: "alert.created", timestamp: alert.createdAt, data: alert })

/** Who an alert goes to: its watchlist's channels and its account's address. */
export interface AlertRecipient {
  readonly watchlistId: WatchlistId
  readonly watchlistName: string
  readonly accountId: AccountId
  readonly accountEmail: string
  readonly email: boolean
  /** The watchlist's webhook, null when it has none or it was disabled (410 Gone). */
  readonly webhook: string | null
}

/** An alert just created, with what planning its deliveries needs. */
export interface CreatedAlert {
  readonly id: AlertId
  readonly reason: AlertReason
  readonly createdAt: DateTime.Utc
  readonly tender: TenderRecord
  readonly recipient: AlertRecipient
}

/** One e-mail digest: every alert one watchlist raised in one evaluation run. */
export interface EmailDigest {
  readonly to: string
  readonly watchlistName: string
  readonly alerts: ReadonlyArray<Alert>
}

/** A delivery to queue; the store keeps it with the alerts, in their transaction. */
export type PlannedDelivery =
  | {
      readonly channel: "email"
      readonly accountId: AccountId
      readonly watchlistId: WatchlistId
      readonly digest: EmailDigest
    }
  | {
      readonly channel: "webhook"
      readonly accountId: AccountId
      readonly watchlistId: WatchlistId
      readonly url: string
      readonly webhookId: string
      readonly body: string
    }

/**
 * The deliveries of alerts created in one evaluation run: one e-mail digest per watchlist whose e-mail channel is on
 * (its alerts in creation order), and one signed webhook call per alert of a watchlist with a live webhook.
 */
export const planDeliveries = (created: ReadonlyArray<CreatedAlert>): ReadonlyArray<PlannedDelivery> => {
  const digests = new Map<WatchlistId, { readonly recipient: AlertRecipient; readonly alerts: Array<Alert> }>()
  const webhooks: Array<PlannedDelivery> = []
  for (const item of created) {
    const { recipient } = item
    const alert = toAlert({ ...item, watchlistId: recipient.watchlistId, watchlistName: recipient.watchlistName })
    if (recipient.email) {
      const digest = digests.get(recipient.watchlistId) ?? { recipient, alerts: [] }
      digest.alerts.push(alert)
      digests.set(recipient.watchlistId, digest)
    }
    if (recipient.webhook !== null) {
      webhooks.push({
        channel: "webhook",
        accountId: recipient.accountId,
        watchlistId: recipient.watchlistId,
        url: recipient.webhook,
        webhookId: newWebhookId(),
        body: webhookBody(alert)
      })
    }
  }
  const emails = [...digests.values()].map(({ recipient, alerts }): PlannedDelivery => ({
    channel: "email",
    accountId: recipient.accountId,
    watchlistId: recipient.watchlistId,
    digest: { to: recipient.accountEmail, watchlistName: recipient.watchlistName, alerts }
  }))
  return [...webhooks, ...emails]
}
