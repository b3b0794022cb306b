import { type DeliveryOutcome, maxWebhookTimeout, type WebhookCall } from "@tenders/core"
import { Duration, Effect } from "effect"
import { readFileSync } from "node:fs"
import { Webhook } from "standardwebhooks"
import { fetch } from "undici"
import { guardedAgent, type HostLookup, type ResolvedTarget, resolveTarget, systemLookup } from "./AddressGuard.ts"

/** Options of the webhook sender. */
export interface WebhookSenderOptions {
  /** `WebhookAllowHosts`: `host:port` targets exempt from the address policy (operators' escape hatch, tests). */
  readonly allowHosts: ReadonlyArray<string>
  /** A PEM file with an extra CA to trust. */
  readonly caFile: string | null
  /** Whole-attempt timeout; core's `maxWebhookTimeout` by default. */
  readonly timeout?: Duration.Duration
  /** How host names are resolved; the system resolver by default. */
  readonly lookup?: HostLookup
}

const failed = (reason: string): DeliveryOutcome => ({ _tag: "Failed", reason, disable: false })

const errorMessage = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message
}

/** Classifies an HTTP status of a webhook receiver. */
export const outcomeForStatus = (status: number): DeliveryOutcome => {
  if (status >= 200 && status < 300) return { _tag: "Delivered" }
  if (status === 410) return { _tag: "Failed", reason: "receiver answered 410 Gone", disable: true }
  if (status === 408 || status === 429 || status >= 500) return { _tag: "Retry", reason: `receiver answered ${status}` }
  if (status >= 300 && status < 400) return failed(`receiver answered ${status}; redirects are not followed`)
  return failed(`receiver answered ${status}`)
}

/** Builds the webhook sender (Standard Webhooks signature, SSRF guard, pinned address, no redirects). */
export const makeWebhookSender = (
  options: WebhookSenderOptions
): ((call: WebhookCall) => Effect.Effect<DeliveryOutcome>) => {
  const ca = options.caFile === null ? null : readFileSync(options.caFile, "utf8")
  const timeoutMs = Duration.toMillis(options.timeout ?? maxWebhookTimeout)
  const lookupHost = options.lookup ?? systemLookup

  const post = (call: WebhookCall, target: ResolvedTarget, signature: string) =>
    Effect.acquireUseRelease(
      Effect.sync(() => guardedAgent(target, timeoutMs, ca)),
      (dispatcher) =>
        Effect.tryPromise({
          try: async (signal) => {
            const response = await fetch(target.url, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "user-agent": "Tenders-Webhooks/1",
                "webhook-id": call.webhookId,
                "webhook-timestamp": String(call.timestamp),
                "webhook-signature": signature
              },
              body: call.body,
              redirect: "manual",
              dispatcher,
              signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
            })
            await response.body?.cancel()
            return outcomeForStatus(response.status)
          },
          catch: (error): DeliveryOutcome => ({ _tag: "Retry", reason: `webhook POST failed: ${errorMessage(error)}` })
        }),
      (dispatcher) => Effect.promise(() => dispatcher.destroy()).pipe(Effect.ignore)
    )

  return Effect.fn("sendWebhook")(
    function* (call: WebhookCall) {
      const signature = yield* Effect.try({
        try: () => new Webhook(call.secret).sign(call.webhookId, new Date(call.timestamp * 1000), call.body),
        catch: (error) => failed(`cannot sign the webhook: ${errorMessage(error)}`)
      })
      const target = yield* resolveTarget(call.url, options.allowHosts, lookupHost)
      return yield* post(call, target, signature)
    },
    Effect.timeoutOrElse({
      duration: timeoutMs + 1_000,
      orElse: () =>
        Effect.succeed<DeliveryOutcome>({ _tag: "Retry", reason: `webhook timed out after ${timeoutMs} ms` })
    }),
    Effect.catch((outcome) => Effect.succeed(outcome))
  )
}
