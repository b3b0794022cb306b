import type { Quota } from "@tenders/core"

/**
 * Where a counted `tools/call` leaves its caller's quota, so the HTTP response that carries the call's result can
 * carry the RateLimit fields as REST responses do. One per HTTP request (which holds one JSON-RPC message).
 */
export class CallQuota {
  #quota: Quota | undefined = undefined
  /** Notes the quota after the call (or after its refusal). */
  readonly record = (quota: Quota): void => {
    this.#quota = quota
  }
  /** The quota the request's call left, if it made one. */
  get quota(): Quota | undefined {
    return this.#quota
  }
}
