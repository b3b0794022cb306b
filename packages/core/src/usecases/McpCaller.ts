/** Who calls `/mcp`: the account behind a static MCP token or an OAuth access token bound to this server. */
import { DateTime, Effect, Option } from "effect"
import { type Account, keyPattern } from "../Account.ts"
import { Unauthorized } from "../Errors.ts"
import { OAuthStore } from "../ports/OAuthStore.ts"
import { accessTokenPattern } from "../Secrets.ts"
import { authenticateCaller } from "./AuthorizeCall.ts"

/**
 * The account behind a bearer secret on `/mcp`: a static MCP token (`mcp_live_`), or an OAuth access token bound
 * to `resource` (RFC 8707; a token for another resource is refused). 401 otherwise.
 */
export const authenticateMcpCaller = Effect.fn("authenticateMcpCaller")(function* (
  secret: string | undefined,
  resource: string | undefined
) {
  if (secret === undefined || !accessTokenPattern.test(secret) || keyPattern.mcp.test(secret)) {
    return yield* authenticateCaller(secret, "mcp")
  }
  const found = yield* (yield* OAuthStore).accessToken(secret, yield* DateTime.now)
  if (Option.isNone(found)) {
    return yield* new Unauthorized({ message: "Invalid, expired or revoked access token." })
  }
  if (found.value.resource !== resource) {
    return yield* new Unauthorized({ message: `This access token is for ${found.value.resource}, not this server.` })
  }
  const account: Account = found.value.account
  return account
})
