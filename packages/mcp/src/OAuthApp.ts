/**
 * The OAuth endpoints of `/mcp` at the HTTP edge: their routes, the HTTP status of each error code, and their answers
 * in RFC 6749's shape.
 */
import {
  exchangeToken,
  isBodyTooLarge,
  OAuthError,
  type OAuthErrorCode,
  OAuthSettings,
  type OAuthStore,
  registerClient,
  revokeToken,
  takeUse,
  type UseLimit
} from "@tenders/core"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { HttpMiddleware, HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import type { RateLimiter } from "effect/persistence"
import {
  metadataOf,
  protectedResourceMetadataUrl,
  registrationPath,
  revocationPath,
  tokenPath
} from "./OAuthMetadata.ts"

/** The ports the authorization server uses. */
type OAuthPorts = OAuthStore | OAuthSettings | RateLimiter.RateLimiter

const noStore = { "cache-control": "no-store", pragma: "no-cache" }

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

/** An endpoint's `OAuthError` as its answer. */
const answerFailure = <A, R>(answer: Effect.Effect<A, OAuthError, R>) =>
  Effect.catch(answer, (failure) => Effect.succeed(oauthFailure(failure)))

/** Client registrations one address may make an hour (anonymous, so limited; each is a row kept). */
export const registrationsPerHour = 20
const registrations: UseLimit = { name: "oauth-registrations", limit: registrationsPerHour, window: Duration.hours(1) }

/** A form's parameters; a body that is no form reads as none (each endpoint then names what is missing). */
const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(Effect.orElseSucceed(() => UrlParams.empty))

/** Whether the request's body is over the server's limit (the body is read once: later reads get it). */
const tooLarge = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.match(request.arrayBuffer, { onFailure: isBodyTooLarge, onSuccess: () => false })

const tooLargeAnswer = json({ error: "invalid_request", error_description: "the body is too large" }, 413, noStore)

/** Dynamic Client Registration (RFC 7591), limited per client address. */
const register = Effect.fn("oauth.register")(function* (request: HttpServerRequest.HttpServerRequest) {
  if (yield* tooLarge(request)) return tooLargeAnswer
  const wait = yield* takeUse(
    registrations,
    Option.getOrElse(request.remoteAddress, () => "unknown")
  )
  if (wait > 0) {
    const description = `too many client registrations from this address; try again in ${wait} s`
    return yield* new OAuthError({ error: "temporarily_unavailable", description, retryAfter: wait })
  }
  const metadata = yield* request.json.pipe(
    Effect.catchTag("HttpServerError", () =>
      Effect.fail(new OAuthError({ error: "invalid_client_metadata", description: "the body must be JSON" }))
    )
  )
  const client = yield* registerClient(metadata)
  return json(
    {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(DateTime.toEpochMillis(client.createdAt) / 1000),
      client_name: client.clientName,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"]
    },
    201,
    noStore
  )
}, answerFailure)

/** The token endpoint. */
const token = Effect.fn("oauth.token")(function* (request: HttpServerRequest.HttpServerRequest) {
  if (yield* tooLarge(request)) return tooLargeAnswer
  return json(yield* exchangeToken(yield* formOf(request)), 200, noStore)
}, answerFailure)

/** Token revocation; RFC 7009 §2.2: 200 whether or not there was such a token, the body empty. */
const revoke = Effect.fn("oauth.revoke")(function* (request: HttpServerRequest.HttpServerRequest) {
  if (yield* tooLarge(request)) return tooLargeAnswer
  yield* revokeToken(yield* formOf(request))
  return HttpServerResponse.empty({ status: 200, headers: noStore })
}, answerFailure)

// Answered by the CORS middleware before it comes here.
const preflight = HttpServerResponse.empty({ status: 204 })

/** A URL's path, as the router takes it (an http URL's path starts with a slash). */
const pathOf = (url: string): HttpRouter.PathInput => {
  const { pathname } = new URL(url)
  return isPath(pathname) ? pathname : "/"
}
const isPath = (text: string): text is `/${string}` => text.startsWith("/")

/** The routes, and a preflight route for each path; the metadata documents' paths follow the public URL. */
const routes = Effect.gen(function* () {
  const settings = yield* OAuthSettings
  const { protectedResource, authorizationServer } = metadataOf(settings)
  const issuerPath = new URL(settings.issuer).pathname.replace(/\/$/u, "")
  const documents: ReadonlyArray<readonly [HttpRouter.PathInput, unknown]> = [
    [pathOf(protectedResourceMetadataUrl(settings.resource)), protectedResource],
    ["/.well-known/oauth-protected-resource", protectedResource],
    [`/.well-known/oauth-authorization-server${issuerPath}`, authorizationServer]
  ]
  const endpoints = [
    HttpRouter.route("POST", registrationPath, register),
    HttpRouter.route("POST", tokenPath, token),
    HttpRouter.route("POST", revocationPath, revoke)
  ]
  const served = [...documents.map(([path, body]) => HttpRouter.route("GET", path, json(body))), ...endpoints]
  return [...served, ...served.map(({ path }) => HttpRouter.route("OPTIONS", path, preflight))]
})

// Public, credential-free JSON: browser-based MCP clients (an inspector) may read it from any origin. These endpoints
// take no cookie, so allowing any origin exposes nothing a plain HTTP client could not get.
const cors = HttpRouter.middleware(
  HttpMiddleware.cors({
    allowedMethods: ["GET", "POST", "OPTIONS"],
    allowedHeaders: ["content-type", "authorization", "mcp-protocol-version"]
  })
).layer

/**
 * The OAuth 2.1 authorization server of `/mcp`, as a router layer: the protected resource's and the authorization
 * server's metadata, Dynamic Client Registration, the token endpoint and token revocation (RFC 7009), each open to
 * any origin (CORS); the consent page is the dashboard's. Needs OAuthStore, OAuthSettings and the RateLimiter (the
 * registrations' limit per address, `request.remoteAddress`: the server applies `X-Forwarded-For` from its trusted
 * proxies before), which its requests use as the layer was given them.
 */
export const OAuthApp: Layer.Layer<never, never, HttpRouter.HttpRouter | OAuthPorts> = HttpRouter.addAll(routes).pipe(
  Layer.provide(cors),
  HttpRouter.provideRequest(Layer.effectContext(Effect.context<OAuthPorts>()))
)
