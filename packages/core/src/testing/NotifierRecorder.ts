import { Context, Effect, Layer } from "effect"
import type { EmailDigest } from "../Delivery.ts"
import { type DeliveryOutcome, Notifier, type SignInMessage, type WebhookCall } from "../ports/Notifier.ts"

/** Every attempt the recording notifier saw, in order. */
export interface NotifierLog {
  readonly emails: Array<EmailDigest>
  readonly webhooks: Array<WebhookCall>
  readonly signIns: Array<SignInMessage>
}

/** What the recording notifier answers to an attempt (the n-th of its channel, from 0). */
export type NotifierScript = {
  readonly email?: (digest: EmailDigest, n: number) => DeliveryOutcome
  readonly webhook?: (call: WebhookCall, n: number) => DeliveryOutcome
}

/** The attempts a `notifierRecorder` saw. */
export class RecordedNotifications extends Context.Service<RecordedNotifications, NotifierLog>()(
  "@tenders/core/testing/RecordedNotifications"
) {}

const delivered: DeliveryOutcome = { _tag: "Delivered" }

/** A Notifier that records every attempt and answers as `script` says (delivered by default). */
export const notifierRecorder = (script: NotifierScript = {}) =>
  Layer.effect(
    Notifier,
    Effect.gen(function* () {
      const log = yield* RecordedNotifications
      return Notifier.of({
        sendEmail: (digest) =>
          Effect.sync(() => {
            log.emails.push(digest)
            return script.email?.(digest, log.emails.length - 1) ?? delivered
          }),
        sendWebhook: (call) =>
          Effect.sync(() => {
            log.webhooks.push(call)
            return script.webhook?.(call, log.webhooks.length - 1) ?? delivered
          }),
        sendSignIn: (message) =>
          Effect.sync(() => {
            log.signIns.push(message)
            return delivered
          })
      })
    })
  ).pipe(Layer.provideMerge(Layer.sync(RecordedNotifications, () => ({ emails: [], webhooks: [], signIns: [] }))))
