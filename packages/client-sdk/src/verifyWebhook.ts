import { Alert, UtcTimestamp } from "@tenders/core"
import { Result, Schema } from "effect"
import { Webhook } from "standardwebhooks"
import { TendersWebhookError } from "./Errors.ts"

/** The body of a webhook delivery: one alert per POST. */
export const WebhookEvent = Schema.Struct({
  type: Schema.Literal("alert.created"),
  timestamp: UtcTimestamp,
  data: Alert
}).annotate({ identifier: "WebhookEvent" })
export type WebhookEvent = typeof WebhookEvent.Type

/** Request headers as `fetch` (`Headers`) or Node's `http` (`IncomingHttpHeaders`) give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const headerNames = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const

const normalize = (headers: WebhookHeaders): Record<string, string> => {
  const out: Record<string, string> = {}
  if (headers instanceof Headers) {
    for (const name of headerNames) {
      const value = headers.get(name)
      if (value !== null) out[name] = value
    }
    return out
  }
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase()
    if (!headerNames.some((wanted) => wanted === key) || value === undefined) continue
    out[key] = typeof value === "string" ? value : value.join(" ")
  }
  return out
}

const decodeEvent = Schema.decodeUnknownResult(WebhookEvent)

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Verifies a webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) with
 * the account's `whsec_...` secret and returns the typed event. `payload` must be the raw request body, exactly
 * as received (not re-serialised JSON). Timestamps more than 5 minutes away from now are refused (replays).
 * Throws {@link TendersWebhookError} when anything does not check out.
 */
export const verifyWebhook = (payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent => {
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload)
  let webhook: Webhook
  try {
    webhook = new Webhook(secret)
  } catch (error) {
    throw new TendersWebhookError(`Invalid webhook secret (expected whsec_ followed by base64): ${messageOf(error)}`, {
      cause: error
    })
  }
  let parsed: unknown
  try {
    parsed = webhook.verify(body, normalize(headers))
  } catch (error) {
    throw new TendersWebhookError(`Webhook verification failed: ${messageOf(error)}`, { cause: error })
  }
  const event = decodeEvent(parsed)
  if (Result.isFailure(event)) {
    throw new TendersWebhookError(`Webhook body is not an alert.created event: ${event.failure.message}`, {
      cause: event.failure
    })
  }
  return event.success
}
