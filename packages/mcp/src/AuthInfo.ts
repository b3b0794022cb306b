/**
 * What the MCP SDK carries from the HTTP request to the tools: the caller's verified token (the credential each tool
 * call authenticates again) and the request's {@link CallQuota}, in the SDK's `AuthInfo`.
 */
import type { AuthInfo } from "@modelcontextprotocol/server"
import { CallQuota } from "./CallQuota.ts"

/**
 * What a request to the MCP server carries: its bearer secret (a static MCP token or an OAuth access token), and,
 * over HTTP, the resource an access token must be bound to (the server's `/mcp` URL).
 */
export interface Credential {
  readonly secret: string | undefined
  readonly resource: string | undefined
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
