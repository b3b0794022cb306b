import { errorBodyOf, errorCodes, rateLimitHeaders } from "@tenders/contract"
import {
  authenticateMcpCaller,
  mcpScope,
  OAuthSettings,
  OAuthStore,
  AccountStore,
  reportDefect,
  type Unauthorized
} from "@tenders/core"
import { Effect, type Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { authInfoWith } from "./AuthInfo.ts"
import { CallQuota } from "./CallQuota.ts"
import { admitMessage, JsonRpcCode, jsonRpcError } from "./JsonRpc.ts"
import { makeMcpFetchHandler } from "./McpHandler.ts"
import { protectedResourceMetadataUrl } from "./OAuthMetadata.ts"
import { corsHeaders, McpAllowedOrigins, originAllowed, originRefusal, preflightHeaders } from "./Origin.ts"
import { makeRunner, type McpPorts } from "./Server.ts"

/** The path of the MCP endpoint. */
export const mcpPath = "/mcp"

const bearer = (header: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/iu.exec(header ?? "")?.[1]

/** The HTTP answer to a refused token, before the protocol starts: the contract's 401 body. */
const unauthorized = (error: Unauthorized, headers: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(errorBodyOf(error), { status: errorCodes.Unauthorized.status, headers })

/** The request as the SDK takes it: a web Request, with the body already read (and admitted) by us. */
const webRequest = (request: HttpServerRequest.HttpServerRequest, body: string | undefined) => {
  const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(mcpPath, "http://localhost"))
  const headers = new Headers(request.headers)
  headers.delete("content-length")
  return new Request(url, { method: request.method, headers, ...(body === undefined ? {} : { body }) })
}

/**
 * The MCP endpoint (Streamable HTTP, stateless, JSON responses) at `/mcp`, as a router layer to serve
 * next to the REST routes. Per request: Origin check (403 `forbidden`), MCP token check (401, not counted), the
 * JSON-RPC gate (malformed, oversized, batched or badly typed messages answered in JSON-RPC), then the SDK; each
 * `tools/call` counts against the quota, reports failures as `isError` tool results, and its HTTP response
 * carries the RateLimit fields. Needs the core ports (TenderStore, AccountStore, WatchlistStore, AlertStore,
 * SourceStatusStore, Rates).
 */
export const McpApp: Layer.Layer<never, never, HttpRouter.HttpRouter | McpPorts | OAuthSettings> = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const accounts = yield* AccountStore
    const oauth = yield* OAuthStore
    const settings = yield* OAuthSettings
    const allowed = yield* McpAllowedOrigins
    // RFC 9728 §5.1: a 401 names where the client learns how to get a token (OAuth 2.1 clients start there), and
    // the scope to ask for (the MCP authorization spec's scope selection).
    const metadataUrl = protectedResourceMetadataUrl(settings.resource)
    const challenge = `Bearer resource_metadata="${metadataUrl}", scope="${mcpScope}"`
    const { run, report } = yield* makeRunner
    // The SDK reports requests it refused (a client's fault: wrong protocol version, bad headers) out of band.
    const mcp = makeMcpFetchHandler(run, report(Effect.logDebug, "MCP request refused"))
    yield* Effect.addFinalizer(() => Effect.promise(() => mcp.close()))

    const handle = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const origin = request.headers["origin"]
      if (!originAllowed(origin, allowed)) return originRefusal(origin, mcpPath)
      const cors = corsHeaders(origin)
      if (request.method === "OPTIONS")
        return HttpServerResponse.empty({ status: 204, headers: { ...cors, ...preflightHeaders } })
      const secret = bearer(request.headers["authorization"])
      const caller = yield* authenticateMcpCaller(secret, settings.resource).pipe(
        Effect.provideService(AccountStore, accounts),
        Effect.provideService(OAuthStore, oauth),
        Effect.result
      )
      if (caller._tag === "Failure") {
        const error = secret === undefined ? "" : `, error="invalid_token"`
        return unauthorized(caller.failure, { ...cors, "www-authenticate": `${challenge}${error}` })
      }
      const admitted = yield* (request.method === "POST" ? admitMessage(request) : Effect.succeed(undefined)).pipe(
        Effect.result
      )
      if (admitted._tag === "Failure") return HttpServerResponse.setHeaders(admitted.failure.response, cors)
      const callQuota = new CallQuota()
      const authInfo = authInfoWith(secret ?? "", caller.success.id, settings.resource, callQuota)
      const answer = yield* Effect.promise(() => mcp.fetch(webRequest(request, admitted.success), authInfo))
      const quota = callQuota.quota === undefined ? {} : rateLimitHeaders(callQuota.quota)
      return HttpServerResponse.setHeaders(HttpServerResponse.fromWeb(answer), { ...cors, ...quota })
    })

    yield* router.add("*", mcpPath, (request) =>
      handle(request).pipe(
        Effect.catchCause((cause) =>
          Effect.map(reportDefect(cause, "MCP request failed"), (internal) =>
            jsonRpcError(500, JsonRpcCode.internal, internal.message)
          )
        )
      )
    )
  })
)
