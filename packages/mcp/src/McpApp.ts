import { AccountStore, authenticateCaller, Internal, Unauthorized } from "@tenders/core"
import { Cause, Effect, type Layer } from "effect"
import { HttpEffect, HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { makeMcpFetchHandler } from "./McpHandler.ts"
import { corsHeaders, McpAllowedOrigins, originAllowed, preflightHeaders } from "./Origin.ts"
import { makeRunner, type McpPorts } from "./Server.ts"
import { type ContractFailure, errorBody } from "./ToolResult.ts"

/** The path of the MCP endpoint. */
export const mcpPath = "/mcp"

const bearer = (header: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/iu.exec(header ?? "")?.[1]

const failure = (status: number, error: ContractFailure, headers: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(errorBody(error), { status, headers })

/**
 * The MCP endpoint (Streamable HTTP, stateless, JSON responses) at `/mcp`, as a router layer to serve
 * next to the REST routes. Per request: Origin check (403), MCP token check (401, not counted), then the
 * SDK; each `tools/call` counts against the quota and reports failures as `isError` tool results.
 * Needs the core ports (TenderStore, AccountStore, WatchlistStore, AlertStore, SourceStatusStore, Rates).
 */
export const McpApp: Layer.Layer<never, never, HttpRouter.HttpRouter | McpPorts> = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const accounts = yield* AccountStore
    const allowed = yield* McpAllowedOrigins
    const { run, report } = yield* makeRunner
    // The SDK reports requests it refused (a client's fault: wrong protocol version, bad headers) out of band.
    const mcp = makeMcpFetchHandler(run, report(Effect.logDebug, "MCP request refused"))
    yield* Effect.addFinalizer(() => Effect.promise(() => mcp.close()))

    const handle = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const origin = request.headers["origin"]
      if (!originAllowed(origin, allowed)) {
        const message = `Origin ${origin ?? ""} may not call ${mcpPath}: only loopback origins and those in TENDERS_MCP_ALLOWED_ORIGINS are allowed.`
        return failure(403, new Unauthorized({ message }), {})
      }
      const cors = corsHeaders(origin)
      if (request.method === "OPTIONS")
        return HttpServerResponse.empty({ status: 204, headers: { ...cors, ...preflightHeaders } })
      const secret = bearer(request.headers["authorization"])
      const caller = yield* authenticateCaller(secret, "mcp").pipe(
        Effect.provideService(AccountStore, accounts),
        Effect.result
      )
      if (caller._tag === "Failure") return failure(401, caller.failure, { ...cors, "www-authenticate": "Bearer" })
      const authInfo = { token: secret ?? "", clientId: caller.success.id, scopes: [] }
      const response = yield* HttpEffect.fromWebHandler((webRequest) => mcp.fetch(webRequest, authInfo))
      return HttpServerResponse.setHeaders(response, cors)
    })

    yield* router.add("*", mcpPath, (request) =>
      handle(request).pipe(
        Effect.catchCause((cause) =>
          Effect.gen(function* () {
            if (Cause.hasInterruptsOnly(cause)) return yield* Effect.interrupt
            const traceId = crypto.randomUUID()
            yield* Effect.logError("MCP request failed", { traceId }, cause)
            return failure(500, new Internal({ message: `Internal error; retry later (trace ${traceId})` }), {})
          })
        )
      )
    )
  })
)
