import type { DeliveryOutcome, WebhookCall } from "@tenders/core"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { lookup } from "node:dns/promises"
import { isIP, type LookupFunction } from "node:net"
import { Webhook } from "standardwebhooks"
import { Agent, fetch } from "undici"
import { refusedAddressReason } from "./AddressGuard.ts"

/** Options of the webhook sender. */
export interface WebhookSenderOptions {
  /** `host:port` pairs exempt from the private-address refusal (operators' escape hatch, tests). */
  readonly allowHosts: ReadonlyArray<string>
  /** A PEM file with an extra CA to trust. */
  readonly caFile: string | null
  /** Whole-attempt timeout; 10 000 ms by default. */
  readonly timeoutMs?: number
}

interface Resolved {
  readonly address: string
  readonly family: 4 | 6
}

interface Target {
  readonly url: URL
  readonly host: string
  /** Every address the host resolved to, all checked; never empty. */
  readonly addresses: readonly [Resolved, ...Array<Resolved>]
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

/** Parses the URL, resolves it and checks every address (SSRF guard); the error is the refusal. */
const resolveTarget = (rawUrl: string, allowHosts: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const url = URL.canParse(rawUrl) ? new URL(rawUrl) : null
    if (url === null) return yield* Effect.fail(failed(`webhook URL is not a valid URL`))
    if (url.protocol !== "https:") return yield* Effect.fail(failed(`webhook URL must use https, not ${url.protocol}`))
    if (url.username !== "" || url.password !== "") {
      return yield* Effect.fail(failed("webhook URL must not carry credentials"))
    }
    const host = url.hostname.replace(/^\[(.*)\]$/u, "$1").toLowerCase()
    const port = url.port === "" ? "443" : url.port
    const allowed = allowHosts.has(`${host}:${port}`) || allowHosts.has(`[${host}]:${port}`)
    const addresses =
      isIP(host) === 0
        ? yield* Effect.tryPromise({
            try: () => lookup(host, { all: true, verbatim: true }),
            catch: (error): DeliveryOutcome => ({
              _tag: "Retry",
              reason: `DNS lookup of ${host} failed: ${errorMessage(error)}`
            })
          })
        : [{ address: host, family: isIP(host) }]
    const first = addresses[0]
    if (first === undefined)
      return yield* Effect.fail<DeliveryOutcome>({ _tag: "Retry", reason: `${host} has no address` })
    if (!allowed) {
      for (const { address } of addresses) {
        const refusal = refusedAddressReason(address)
        if (refusal !== null) {
          return yield* Effect.fail(failed(`refused webhook target ${host}:${port}: ${refusal}`))
        }
      }
    }
    const toResolved = ({ address, family }: { address: string; family: number }): Resolved => ({
      address,
      family: family === 6 ? 6 : 4
    })
    const target: Target = { url, host, addresses: [toResolved(first), ...addresses.slice(1).map(toResolved)] }
    return target
  })

/** A lookup that answers every query with the already checked addresses only (DNS pinning). */
const pinnedLookup =
  (addresses: Target["addresses"]): LookupFunction =>
  (_hostname, options, callback) => {
    const wanted =
      options.family === 4 || options.family === 6
        ? addresses.filter((resolved) => resolved.family === options.family)
        : addresses
    const first = wanted[0]
    if (first === undefined)
      callback(Object.assign(new Error("no checked address of that family"), { code: "ENOTFOUND" }), [])
    else if (options.all === true)
      callback(
        null,
        wanted.map(({ address, family }) => ({ address, family }))
      )
    else callback(null, first.address, first.family)
  }

/** Builds the webhook sender (Standard Webhooks signature, SSRF guard, pinned address, no redirects). */
export const makeWebhookSender = (
  options: WebhookSenderOptions
): ((call: WebhookCall) => Effect.Effect<DeliveryOutcome>) => {
  const allowHosts = new Set(options.allowHosts.map((entry) => entry.trim().toLowerCase()).filter((e) => e !== ""))
  const ca = options.caFile === null ? null : readFileSync(options.caFile, "utf8")
  const timeoutMs = options.timeoutMs ?? 10_000

  const post = (call: WebhookCall, target: Target, signature: string) =>
    Effect.acquireUseRelease(
      Effect.sync(
        () =>
          new Agent({
            connectTimeout: timeoutMs,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
            connect: {
              lookup: pinnedLookup(target.addresses),
              ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
              ...(ca === null ? {} : { ca })
            }
          })
      ),
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

  return (call) =>
    Effect.gen(function* () {
      const signature = yield* Effect.try({
        try: () => new Webhook(call.secret).sign(call.webhookId, new Date(call.timestamp * 1000), call.body),
        catch: (error) => failed(`cannot sign the webhook: ${errorMessage(error)}`)
      })
      const target = yield* resolveTarget(call.url, allowHosts)
      return yield* post(call, target, signature)
    }).pipe(
      Effect.timeoutOrElse({
        duration: timeoutMs + 1_000,
        orElse: () =>
          Effect.succeed<DeliveryOutcome>({ _tag: "Retry", reason: `webhook timed out after ${timeoutMs} ms` })
      }),
      Effect.catch((outcome) => Effect.succeed(outcome))
    )
}
