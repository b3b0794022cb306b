/**
 * The guard of every outbound HTTP call to an address a user gave (webhooks, OAuth Client ID Metadata Documents):
 * core's URL check, DNS, core's address policy on every address found, and a connection pinned to those addresses.
 */
import { addressProblem, type DeliveryOutcome, parseWebhookTarget, type WebhookTarget } from "@tenders/core"
import { Effect, Result } from "effect"
import { lookup } from "node:dns/promises"
import type { LookupFunction } from "node:net"
import { Agent } from "undici"

/** One address a webhook host resolved to. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** A webhook target and every address its host resolved to, all checked; never empty. */
export interface ResolvedTarget extends WebhookTarget {
  readonly addresses: readonly [ResolvedAddress, ...Array<ResolvedAddress>]
}

const refused = (reason: string): DeliveryOutcome => ({ _tag: "Failed", reason, disable: false })

/** Every address of a host name, as `dns.lookup` answers (the system resolver, hosts file included). */
export type HostLookup = (host: string) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

/** The system resolver. */
export const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true })

const resolve = (host: string, lookupHost: HostLookup) =>
  Effect.tryPromise({
    try: () => lookupHost(host),
    catch: (error): DeliveryOutcome => ({
      _tag: "Retry",
      reason: `DNS lookup of ${host} failed: ${error instanceof Error ? error.message : String(error)}`
    })
  })

/**
 * Core's URL check, then DNS, then core's address policy on every address the host resolved to (SSRF guard);
 * the failure is the outcome to record.
 */
export const resolveTarget = Effect.fn("resolveTarget")(function* (
  rawUrl: string,
  allowHosts: ReadonlyArray<string>,
  lookupHost: HostLookup
) {
  const checked = parseWebhookTarget(rawUrl, allowHosts)
  if (Result.isFailure(checked)) return yield* Effect.fail(refused(`refused webhook URL: ${checked.failure}`))
  const target = checked.success
  const found = target.isAddress
    ? [{ address: target.host, family: target.host.includes(":") ? 6 : 4 }]
    : yield* resolve(target.host, lookupHost)
  const addresses = found.map(({ address, family }): ResolvedAddress => ({ address, family: family === 6 ? 6 : 4 }))
  const [first, ...rest] = addresses
  if (first === undefined)
    return yield* Effect.fail<DeliveryOutcome>({ _tag: "Retry", reason: `${target.host} has no address` })
  if (!target.allowListed) {
    for (const { address } of addresses) {
      const problem = addressProblem(address)
      if (problem !== undefined) {
        return yield* Effect.fail(refused(`refused webhook target ${target.host}:${target.port}: ${problem}`))
      }
    }
  }
  const resolved: ResolvedTarget = { ...target, addresses: [first, ...rest] }
  return resolved
})

/** A lookup that answers every query with the already checked addresses only (DNS pinning). */
export const pinnedLookup =
  (addresses: ResolvedTarget["addresses"]): LookupFunction =>
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

/**
 * A dispatcher that connects to the checked addresses of `target` only (the name kept for TLS), within `timeoutMs`
 * for each step, trusting `ca` too when given; one per request (destroy it after).
 */
export const guardedAgent = (target: ResolvedTarget, timeoutMs: number, ca: string | null | undefined) =>
  new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      lookup: pinnedLookup(target.addresses),
      ...(target.isAddress ? {} : { servername: target.host }),
      ...(ca === null || ca === undefined ? {} : { ca })
    }
  })
