import type { AuthInfo } from "@modelcontextprotocol/server"
import type { Quota } from "@tenders/core"
import type { Credential } from "./Tool.ts"

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

const key = "tenders.callQuota"

/** The SDK's auth info for a verified token (bound to `resource`), carrying the request's {@link CallQuota}. */
export const authInfoWith = (token: string, clientId: string, resource: string, callQuota: CallQuota): AuthInfo => ({
  token,
  clientId,
  scopes: [],
  resource: new URL(resource),
  extra: { [key]: callQuota }
})

/** The credential the tools authenticate again on each call: the token, and the resource it must be bound to. */
export const credentialOf = (authInfo: AuthInfo | undefined): Credential => ({
  secret: authInfo?.token,
  resource: authInfo?.resource?.href
})

/** The {@link CallQuota} of a request, from the auth info the SDK hands back to the server factory. */
export const callQuotaOf = (authInfo: AuthInfo | undefined): CallQuota | undefined => {
  const found = authInfo?.extra?.[key]
  return found instanceof CallQuota ? found : undefined
}
