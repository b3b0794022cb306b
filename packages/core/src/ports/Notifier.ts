import { Context, type Effect } from "effect"
import type { EmailDigest } from "../Delivery.ts"
import type { UiLanguage } from "../Language.ts"

/** One signed webhook call (Standard Webhooks): the same `webhookId` on every retry of it. */
export interface WebhookCall {
  readonly url: string
  /** The account's signing secret, `whsec_...` (base64 after the prefix). */
  readonly secret: string
  readonly webhookId: string
  /** Seconds since the epoch of this attempt, sent as `webhook-timestamp` and signed. */
  readonly timestamp: number
  /** The JSON body: `{"type":"alert.created","timestamp":<ISO>,"data":<Alert>}`. */
  readonly body: string
}

/** A sign-in link for the dashboard, valid `minutes` and once. */
export interface SignInMessage {
  readonly to: string
  readonly url: string
  readonly minutes: number
  readonly language: UiLanguage
}

/** What an attempt achieved. */
export type DeliveryOutcome =
  | { readonly _tag: "Delivered" }
  /** Worth trying again later (network error, timeout, 5xx, 429, SMTP temporary failure). */
  | { readonly _tag: "Retry"; readonly reason: string }
  /** Never worth retrying: 410 Gone (the endpoint is disabled), a refused address, another 4xx. */
  | { readonly _tag: "Failed"; readonly reason: string; readonly disable: boolean }

/** Sends alerts, and sign-in links, out of the service. */
export class Notifier extends Context.Service<
  Notifier,
  {
    readonly sendEmail: (digest: EmailDigest) => Effect.Effect<DeliveryOutcome>
    readonly sendWebhook: (call: WebhookCall) => Effect.Effect<DeliveryOutcome>
    readonly sendSignIn: (message: SignInMessage) => Effect.Effect<DeliveryOutcome>
  }
>()("@tenders/core/Notifier") {}
