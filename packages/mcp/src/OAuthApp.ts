import {
  exchangeToken,
  isBodyTooLarge,
  mcpScope,
  oauthAuthorizationPath,
  OAuthError,
  type OAuthErrorCode,
  OAuthSettings,
  type OAuthStore,
  registerClient,
  revokeToken,
  takeUse,
  type UseLimit
} from "@tenders/core"
import { DateTime, Duration, Effect, Option } from "effect"
import { HttpMiddleware, HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import type { RateLimiter } from "effect/persistence"
import { protectedResourceMetadataUrl } from "./McpApp.ts"

/** The ports the authorization server uses. */
type OAuthPorts = OAuthStore | OAuthSettings | RateLimiter.RateLimiter

export const tokenPath = "/oauth/token"
export const registrationPath = "/oauth/register"
export const revocationPath = "/oauth/revoke"

// Public, credential-free JSON: browser-based MCP clients (an inspector) may read it from any origin. These endpoints
// take no cookie, so allowing any origin exposes nothing a plain HTTP client could not get.
const withCors = HttpMiddleware.cors({
  allowedMethods: ["GET", "POST", "OPTIONS"],
  allowedHeaders: ["content-type", "authorization", "mcp-protocol-version"]
})
const noStore = { "cache-control": "no-store", pragma: "no-cache" }

const path = (text: string) => text as HttpRouter.PathInput

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

/** The status of each error code: RFC 6749 §5.2's 400, and 401 for a client that could not be identified. */
const statusOf: { readonly [Code in OAuthErrorCode]: number } = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  unsupported_response_type: 400,
  access_denied: 400,
  temporarily_unavailable: 503
}

/** RFC 6749 §5.2: `{ "error", "error_description" }`; refused by a limit, 429 with `Retry-After`. */
const oauthFailure = (failure: OAuthError) =>
  json(
    { error: failure.error, error_description: failure.description },
    failure.retryAfter === undefined ? statusOf[failure.error] : 429,
    failure.retryAfter === undefined ? noStore : { ...noStore, "retry-after": String(failure.retryAfter) }
  )

/** Client registrations one address may make an hour (anonymous, so limited; each is a row kept). */
export const registrationsPerHour = 20
const registrations: UseLimit = { name: "oauth-registrations", limit: registrationsPerHour, window: Duration.hours(1) }

/** The metadata documents (RFC 9728, RFC 8414) for the configured public URL. */
export const metadataOf = (settings: OAuthSettings["Service"]) => ({
  protectedResource: {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    scopes_supported: [mcpScope],
    bearer_methods_supported: ["header"],
    resource_name: "Tenders"
  },
  authorizationServer: {
    issuer: settings.issuer,
    authorization_endpoint: `${settings.issuer}${oauthAuthorizationPath}`,
    token_endpoint: `${settings.issuer}${tokenPath}`,
    registration_endpoint: `${settings.issuer}${registrationPath}`,
    revocation_endpoint: `${settings.issuer}${revocationPath}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [mcpScope],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${settings.issuer}/docs`
  }
})

/** A form's parameters; a body that is no form reads as none (each endpoint then names what is missing). */
const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(Effect.orElseSucceed(() => UrlParams.empty))

/** Whether the request's body is over the server's limit (the body is read once: later reads get it). */
const tooLarge = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.match(request.arrayBuffer, { onFailure: isBodyTooLarge, onSuccess: () => false })

const tooLargeAnswer = json({ error: "invalid_request", error_description: "the body is too large" }, 413, noStore)

/**
 * The OAuth 2.1 authorization server of `/mcp`, as a router layer: the protected resource's and the authorization
 * server's metadata, Dynamic Client Registration, the token endpoint and token revocation (RFC 7009); the consent
 * page is the dashboard's. Needs OAuthStore, OAuthSettings and the RateLimiter (the registrations' limit per address,
 * `request.remoteAddress`: the server applies `X-Forwarded-For` from its trusted proxies before).
 */
export const OAuthApp = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* OAuthSettings
    const context = yield* Effect.context<OAuthPorts>()
    const { protectedResource, authorizationServer } = metadataOf(settings)
    const resourceMetadata = new URL(protectedResourceMetadataUrl(settings.resource)).pathname
    const issuerPath = new URL(settings.issuer).pathname.replace(/\/$/u, "")
    const served = (body: unknown) => () => Effect.succeed(json(body))
    const answered = <A>(
      answer: Effect.Effect<A, OAuthError, OAuthPorts>,
      ok: (a: A) => HttpServerResponse.HttpServerResponse
    ) =>
      answer.pipe(
        Effect.map(ok),
        Effect.catchTag("OAuthError", (failure) => Effect.succeed(oauthFailure(failure)))
      )

    const register = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (yield* tooLarge(request)) return tooLargeAnswer
      const wait = yield* takeUse(
        registrations,
        Option.getOrElse(request.remoteAddress, () => "unknown")
      )
      if (wait > 0) {
        const description = `too many client registrations from this address; try again in ${wait} s`
        return oauthFailure(new OAuthError({ error: "temporarily_unavailable", description, retryAfter: wait }))
      }
      const registered = request.json.pipe(
        Effect.catchTag("HttpServerError", () =>
          Effect.fail(new OAuthError({ error: "invalid_client_metadata", description: "the body must be JSON" }))
        ),
        Effect.flatMap(registerClient)
      )
      return yield* answered(registered, (c) =>
        json(
          {
            client_id: c.clientId,
            client_id_issued_at: Math.floor(DateTime.toEpochMillis(c.createdAt) / 1000),
            client_name: c.clientName,
            redirect_uris: c.redirectUris,
            token_endpoint_auth_method: "none",
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"]
          },
          201,
          noStore
        )
      )
    })

    const token = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (yield* tooLarge(request)) return tooLargeAnswer
      return yield* answered(Effect.flatMap(formOf(request), exchangeToken), (tokens) => json(tokens, 200, noStore))
    })

    // RFC 7009 §2.2: 200 whether or not there was such a token; the body is empty.
    const revoke = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (yield* tooLarge(request)) return tooLargeAnswer
      return yield* answered(Effect.flatMap(formOf(request), revokeToken), () =>
        HttpServerResponse.empty({ status: 200, headers: noStore })
      )
    })

    const routes = [
      ["GET", path(resourceMetadata), served(protectedResource)],
      ["GET", "/.well-known/oauth-protected-resource", served(protectedResource)],
      ["GET", path(`/.well-known/oauth-authorization-server${issuerPath}`), served(authorizationServer)],
      ["POST", registrationPath, register],
      ["POST", tokenPath, token],
      ["POST", revocationPath, revoke]
    ] as const
    for (const [method, route, handle] of routes) {
      const handler = (request: HttpServerRequest.HttpServerRequest) =>
        handle(request).pipe(withCors, Effect.provide(context))
      yield* router.add(method, route, handler)
      // A browser's preflight, answered by the CORS middleware before the handler.
      yield* router.add("OPTIONS", route, handler)
    }
  })
)
