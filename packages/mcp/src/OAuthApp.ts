import {
  type ClientMetadataDocuments,
  clientAddressOf,
  exchangeToken,
  isBodyTooLarge,
  makeThrottle,
  mcpScope,
  oauthAuthorizationPath,
  OAuthError,
  OAuthSettings,
  type OAuthStore,
  registerClient
} from "@tenders/core"
import { DateTime, Duration, Effect, Option } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { protectedResourceMetadataUrl } from "./McpApp.ts"

/** The ports the authorization server uses. */
type OAuthPorts = OAuthStore | OAuthSettings | ClientMetadataDocuments

export const tokenPath = "/oauth/token"
export const registrationPath = "/oauth/register"

// Public, credential-free JSON: browser-based MCP clients (an inspector) may read it from any origin. The token
// endpoint takes no cookie, so allowing any origin exposes nothing a plain HTTP client could not get.
const cors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type, authorization, mcp-protocol-version"
}
const noStore = { "cache-control": "no-store", pragma: "no-cache" }

const path = (text: string) => text as HttpRouter.PathInput

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...cors, ...headers } })

/** RFC 6749 §5.2: `{ "error", "error_description" }`; a client that could not be identified is 401. */
const oauthFailure = (failure: OAuthError) =>
  json(
    { error: failure.error, error_description: failure.description },
    failure.error === "invalid_client" ? 401 : 400,
    noStore
  )

/** Client registrations one address may make an hour (anonymous, so limited; each is a row kept). */
export const registrationsPerHour = 20

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
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [mcpScope],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${settings.issuer}/docs`
  }
})

/** A form's parameters, and the names given more than once (RFC 6749 §3.1: none may repeat). */
const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(
    Effect.map((params) => {
      const entries = Object.entries(UrlParams.toRecord(params))
      return {
        form: Object.fromEntries(
          entries.flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : []))
        ),
        repeated: entries.flatMap(([name, value]) => (typeof value === "string" ? [] : [name]))
      }
    }),
    Effect.orElseSucceed(() => ({ form: {} as Record<string, string>, repeated: [] as Array<string> }))
  )

/** Whether the request's body is over the server's limit (the body is read once: later reads get it). */
const tooLarge = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.match(request.arrayBuffer, { onFailure: isBodyTooLarge, onSuccess: () => false })

const tooLargeAnswer = json({ error: "invalid_request", error_description: "the body is too large" }, 413, noStore)

/**
 * The OAuth 2.1 authorization server of `/mcp`, as a router layer: the protected resource's and the authorization
 * server's metadata, Dynamic Client Registration and the token endpoint (the consent page is the dashboard's).
 * Needs OAuthStore, ClientMetadataDocuments and OAuthSettings.
 */
export const OAuthApp = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* OAuthSettings
    const context = yield* Effect.context<OAuthPorts>()
    const { protectedResource, authorizationServer } = metadataOf(settings)
    const resourceMetadata = new URL(protectedResourceMetadataUrl(settings.resource)).pathname
    const issuerPath = new URL(settings.issuer).pathname.replace(/\/$/u, "")
    const served = (body: unknown) => () => Effect.succeed(json(body))
    const preflight = () => Effect.succeed(HttpServerResponse.empty({ status: 204, headers: cors }))
    const registrations = yield* makeThrottle(registrationsPerHour, Duration.hours(1))
    /** Seconds to wait before this address may register again, or 0. */
    const registrationWait = (request: HttpServerRequest.HttpServerRequest) =>
      registrations(
        clientAddressOf(
          Option.getOrUndefined(request.remoteAddress),
          request.headers["x-forwarded-for"],
          settings.trustedProxies
        )
      )

    const register = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (yield* tooLarge(request)) return tooLargeAnswer
      const wait = yield* registrationWait(request)
      if (wait > 0) {
        const description = `too many client registrations from this address; try again in ${wait} s`
        return json({ error: "temporarily_unavailable", error_description: description }, 429, {
          ...noStore,
          "retry-after": String(wait)
        })
      }
      const body = yield* Effect.result(request.json)
      if (body._tag === "Failure") {
        return oauthFailure(new OAuthError({ error: "invalid_client_metadata", description: "the body must be JSON" }))
      }
      const client = yield* Effect.result(registerClient(body.success))
      if (client._tag === "Failure") return oauthFailure(client.failure)
      const c = client.success
      return json(
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
    })

    const token = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (yield* tooLarge(request)) return tooLargeAnswer
      const { form, repeated } = yield* formOf(request)
      if (repeated.length > 0) {
        const description = `${repeated.join(", ")} given more than once`
        return oauthFailure(new OAuthError({ error: "invalid_request", description }))
      }
      const answer = yield* Effect.result(exchangeToken(form))
      return answer._tag === "Failure" ? oauthFailure(answer.failure) : json(answer.success, 200, noStore)
    })

    const routes: ReadonlyArray<
      readonly [
        "GET" | "POST" | "OPTIONS",
        HttpRouter.PathInput,
        (
          request: HttpServerRequest.HttpServerRequest
        ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, OAuthPorts>
      ]
    > = [
      ["GET", path(resourceMetadata), served(protectedResource)],
      ["GET", "/.well-known/oauth-protected-resource", served(protectedResource)],
      ["GET", path(`/.well-known/oauth-authorization-server${issuerPath}`), served(authorizationServer)],
      ["OPTIONS", path(resourceMetadata), preflight],
      ["OPTIONS", "/.well-known/oauth-protected-resource", preflight],
      ["OPTIONS", path(`/.well-known/oauth-authorization-server${issuerPath}`), preflight],
      ["POST", registrationPath, register],
      ["OPTIONS", registrationPath, preflight],
      ["POST", tokenPath, token],
      ["OPTIONS", tokenPath, preflight]
    ]
    for (const [method, path, handle] of routes)
      yield* router.add(method, path, (request) => Effect.provide(handle(request), context))
  })
)
