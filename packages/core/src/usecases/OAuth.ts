import { Config, ConfigProvider, Context, DateTime, Duration, Effect, Option, Schema } from "effect"
import { type Account, keyPattern } from "../Account.ts"
import { Unauthorized } from "../Errors.ts"
import type { AccountId } from "../Ids.ts"
import { type CodeGrant, type OAuthClient, OAuthStore, type TokenPair } from "../ports/OAuthStore.ts"
import { trustedProxiesConfig } from "../ClientAddress.ts"
import { textProblem } from "../Text.ts"
import { authenticateCaller } from "./AuthorizeCall.ts"
import { newOpaqueToken } from "./SignIn.ts"

/** The authorization server's and the protected resource's settings (built from `TENDERS_PUBLIC_URL`). */
export class OAuthSettings extends Context.Service<
  OAuthSettings,
  {
    /** The issuer: the public URL's origin and path, without a trailing slash. */
    readonly issuer: string
    /** The protected resource (RFC 8707, RFC 9728): the public `/mcp` URL tokens are bound to. */
    readonly resource: string
    readonly accessTokenTtl: Duration.Duration
    readonly refreshTokenTtl: Duration.Duration
    /** Reverse proxies whose `X-Forwarded-For` is believed, for the registrations' limit per client. */
    readonly trustedProxies: ReadonlyArray<string>
  }
>()("@tenders/core/OAuthSettings") {}

/** The settings for a public URL, with the default token lifetimes (15 minutes; 30 days for refresh tokens). */
export const oauthSettingsFor = (publicUrl: URL): OAuthSettings["Service"] => {
  const issuer = publicUrl.href.replace(/\/+$/u, "")
  return {
    issuer,
    resource: `${issuer}/mcp`,
    accessTokenTtl: Duration.minutes(15),
    refreshTokenTtl: Duration.days(30),
    trustedProxies: []
  }
}

/**
 * The settings from the environment: `TENDERS_OAUTH_ACCESS_TTL` (how long an access token works; 15 minutes unless
 * set, at most a day) and `TENDERS_TRUSTED_PROXIES`, for the public URL.
 */
export const oauthSettingsConfig = (publicUrl: URL): Config.Config<OAuthSettings["Service"]> =>
  Config.all({
    ttl: Config.Duration("TENDERS_OAUTH_ACCESS_TTL").pipe(Config.withDefault(Duration.minutes(15))),
    trustedProxies: trustedProxiesConfig
  }).pipe(
    Config.mapEffect(({ ttl, trustedProxies }) =>
      Duration.isGreaterThan(ttl, Duration.zero) && Duration.isLessThanOrEqualTo(ttl, Duration.days(1))
        ? Effect.succeed({ ...oauthSettingsFor(publicUrl), accessTokenTtl: ttl, trustedProxies })
        : Effect.fail(
            new Config.ConfigError(
              new ConfigProvider.SourceError({
                message: "TENDERS_OAUTH_ACCESS_TTL must be more than 0 and at most a day"
              })
            )
          )
    )
  )

/** The authorization endpoint's path: the dashboard's consent page, where its session cookie reaches. */
export const oauthAuthorizationPath = "/dashboard/oauth/authorize"

/** How long an authorization code can be exchanged (once). */
export const authorizationCodeTtl = Duration.minutes(5)

/** The one scope: use the MCP tools as the account. */
export const mcpScope = "mcp"

/** Access and refresh tokens: a prefix (secret scanners find them) and 32 random bytes, base64url. */
export const oauthTokenPrefix = { access: "mcp_at_", refresh: "mcp_rt_" } as const
const accessTokenPattern = /^mcp_at_[A-Za-z0-9_-]{43}$/u

/**
 * An OAuth failure in RFC 6749's terms (`invalid_request`, `invalid_grant`, ...): the token and registration
 * endpoints answer `{ "error", "error_description" }`, and the authorization endpoint redirects with them.
 */
export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  error: Schema.String,
  description: Schema.String
}) {}

const fail = (error: string, description: string) => Effect.fail(new OAuthError({ error, description }))

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

// ----- Clients: Dynamic Client Registration (RFC 7591) and Client ID Metadata Documents -----

/** Why a redirect URI is refused: https, or http on a loopback host (native apps); no fragment. */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (!URL.canParse(uri)) return `${uri} is not a URL`
  const url = new URL(uri)
  if (url.hash !== "") return `${uri} has a fragment`
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]"
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return undefined
  if (url.protocol === "http:") return `${uri}: http is allowed for loopback hosts only`
  // A private-use scheme of a native app (com.example.app:/callback) is allowed (RFC 8252 §7.1).
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/u.test(url.protocol) ? undefined : `${uri}: scheme ${url.protocol} refused`
}

const textArray = Schema.Array(Schema.String)
/** The client metadata we read (RFC 7591 §2); other members are ignored. */
const ClientMetadata = Schema.Struct({
  redirect_uris: textArray,
  client_name: Schema.optionalKey(Schema.String),
  token_endpoint_auth_method: Schema.optionalKey(Schema.String),
  grant_types: Schema.optionalKey(textArray),
  response_types: Schema.optionalKey(textArray),
  client_id: Schema.optionalKey(Schema.String)
})

/** Checks client metadata (registration or metadata document): public client, code flow, valid redirect URIs. */
const checkMetadata = (metadata: unknown) =>
  Effect.gen(function* () {
    const decoded = Schema.decodeUnknownOption(ClientMetadata)(metadata)
    if (Option.isNone(decoded)) return yield* fail("invalid_client_metadata", "redirect_uris (an array) is required")
    const m = decoded.value
    const text = [m.client_name, m.client_id, ...m.redirect_uris].flatMap((t) => (t === undefined ? [] : [t]))
    const textual = text.map(textProblem).find((p) => p !== undefined)
    if (textual !== undefined) return yield* fail("invalid_client_metadata", `client metadata ${textual}`)
    if (m.redirect_uris.length === 0 || m.redirect_uris.length > 10) {
      return yield* fail("invalid_redirect_uri", "give from 1 to 10 redirect_uris")
    }
    const problem = m.redirect_uris.map(redirectUriProblem).find((p) => p !== undefined)
    if (problem !== undefined) return yield* fail("invalid_redirect_uri", problem)
    if ((m.token_endpoint_auth_method ?? "none") !== "none") {
      return yield* fail("invalid_client_metadata", 'token_endpoint_auth_method must be "none" (a public client)')
    }
    const grants = m.grant_types ?? ["authorization_code"]
    if (
      !grants.includes("authorization_code") ||
      grants.some((g) => g !== "authorization_code" && g !== "refresh_token")
    ) {
      return yield* fail("invalid_client_metadata", "grant_types: authorization_code, and refresh_token, only")
    }
    if (!(m.response_types ?? ["code"]).every((r) => r === "code")) {
      return yield* fail("invalid_client_metadata", 'response_types: "code" only')
    }
    const name = (m.client_name ?? "").trim().slice(0, 100)
    const first = new URL(m.redirect_uris[0] ?? "")
    return { metadata: m, clientName: name !== "" ? name : first.host !== "" ? first.host : first.protocol }
  })

/**
 * How long a registered client that no one authorized is kept. Registration is open to anyone (RFC 7591), so the
 * registrations nobody followed with a consent must not pile up; a client that got a grant is kept while it has one.
 */
export const unusedClientLifetime = Duration.days(30)

/** Registers a public client (RFC 7591): its id and the metadata kept. Forgets the clients long unused. */
export const registerClient = Effect.fn("registerClient")(function* (metadata: unknown) {
  const { metadata: m, clientName } = yield* checkMetadata(metadata)
  const store = yield* OAuthStore
  const now = yield* DateTime.now
  const client: OAuthClient = {
    clientId: `tc_${newOpaqueToken().slice(0, 32)}`,
    clientName,
    redirectUris: m.redirect_uris,
    createdAt: now
  }
  yield* store.saveClient(client)
  yield* store.forgetUnusedClients(DateTime.subtractDuration(now, unusedClientLifetime))
  return client
})

/** Fetches a Client ID Metadata Document (an https `client_id` URL), through the webhooks' address guard. */
export class ClientMetadataDocuments extends Context.Service<
  ClientMetadataDocuments,
  { readonly fetch: (url: string) => Effect.Effect<unknown, OAuthError> }
>()("@tenders/core/ClientMetadataDocuments") {}

/** Whether a client id is a metadata document's URL: https, with a path, no fragment or credentials. */
export const isMetadataDocumentId = (clientId: string): boolean => {
  if (!URL.canParse(clientId)) return false
  const url = new URL(clientId)
  return url.protocol === "https:" && url.pathname !== "/" && url.hash === "" && url.username === ""
}

/** The client of a `client_id`: fetched from its metadata document (which must name itself), or registered. */
export const resolveClient = Effect.fn("resolveClient")(function* (clientId: string) {
  if (isMetadataDocumentId(clientId)) {
    const document = yield* (yield* ClientMetadataDocuments).fetch(clientId)
    const { metadata, clientName } = yield* checkMetadata(document)
    if (metadata.client_id !== clientId) {
      return yield* fail("invalid_client", "the client metadata document's client_id is not its own URL")
    }
    const client: OAuthClient = {
      clientId,
      clientName,
      redirectUris: metadata.redirect_uris,
      createdAt: yield* DateTime.now
    }
    return client
  }
  const found = yield* (yield* OAuthStore).findClient(clientId)
  if (Option.isNone(found)) return yield* fail("invalid_client", "unknown client_id")
  return found.value
})

// ----- Authorization (code + PKCE S256 only) -----

/** A request parameter that is not acceptable text (core's one rule, `textProblem`): what is wrong with it. */
const parametersProblem = (params: Readonly<Record<string, string | undefined>>): string | undefined => {
  for (const [name, value] of Object.entries(params)) {
    const problem = value === undefined ? undefined : textProblem(value)
    if (problem !== undefined) return `${name} ${problem}`
  }
  return undefined
}

/** An authorization request, checked: the client, and what the consent page shows and the code is bound to. */
export interface AuthorizationRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  /** Whether the request named its redirect URI (the token request must then name it too). */
  readonly redirectUriGiven: boolean
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly resource: string
  readonly scope: string
}

const challengePattern = /^[A-Za-z0-9_-]{43}$/u

/**
 * Checks an authorization request. `Invalid` (shown on the page, never redirected): an unknown client or a redirect
 * URI it did not register. `Redirect`: an error for the client at its verified redirect URI. `Valid`: ask the person.
 */
export const checkAuthorization = Effect.fn("checkAuthorization")(function* (
  params: Readonly<Record<string, string | undefined>>
) {
  const settings = yield* OAuthSettings
  const textual = parametersProblem(params)
  if (textual !== undefined) return { _tag: "Invalid" as const, message: textual }
  const clientId = params["client_id"] ?? ""
  const client = yield* Effect.result(resolveClient(clientId))
  if (client._tag === "Failure") return { _tag: "Invalid" as const, message: client.failure.description }
  const redirectUri = params["redirect_uri"] ?? client.success.redirectUris[0] ?? ""
  if (
    !client.success.redirectUris.includes(redirectUri) ||
    (params["redirect_uri"] === undefined && client.success.redirectUris.length > 1)
  ) {
    return { _tag: "Invalid" as const, message: "redirect_uri is not one the client registered" }
  }
  const state = params["state"]
  const redirect = (error: string, description: string) => ({
    _tag: "Redirect" as const,
    url: authorizationResponse(redirectUri, { error, error_description: description, state }, settings.issuer)
  })
  if (params["response_type"] !== "code") return redirect("unsupported_response_type", 'response_type must be "code"')
  if (params["code_challenge_method"] !== "S256" || !challengePattern.test(params["code_challenge"] ?? "")) {
    return redirect("invalid_request", "PKCE is required: code_challenge (S256) and code_challenge_method=S256")
  }
  const resource = params["resource"] ?? settings.resource
  if (resource !== settings.resource) return redirect("invalid_target", `resource must be ${settings.resource}`)
  const scopes = (params["scope"] ?? mcpScope).split(" ").filter((s) => s !== "" && s !== "offline_access")
  if (scopes.some((s) => s !== mcpScope)) return redirect("invalid_scope", `the only scope is "${mcpScope}"`)
  const request: AuthorizationRequest = {
    client: client.success,
    redirectUri,
    redirectUriGiven: params["redirect_uri"] !== undefined,
    state,
    codeChallenge: params["code_challenge"] ?? "",
    resource,
    scope: mcpScope
  }
  return { _tag: "Valid" as const, request }
})

/** The redirect URI with the response's parameters (and `iss`, RFC 9207). */
export const authorizationResponse = (
  redirectUri: string,
  values: Readonly<Record<string, string | undefined>>,
  issuer: string
): string => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries({ ...values, iss: issuer })) {
    if (value !== undefined) url.searchParams.set(name, value)
  }
  return url.href
}

/** The person allowed the request: a grant and its code; the URL to send the browser back to. */
export const approveAuthorization = Effect.fn("approveAuthorization")(function* (
  request: AuthorizationRequest,
  accountId: AccountId
) {
  const settings = yield* OAuthSettings
  const now = yield* DateTime.now
  const code = newOpaqueToken()
  yield* (yield* OAuthStore).createGrant(
    {
      accountId,
      clientId: request.client.clientId,
      clientName: request.client.clientName,
      redirectUri: request.redirectUri,
      resource: request.resource,
      scope: request.scope,
      createdAt: now
    },
    {
      code,
      challenge: request.codeChallenge,
      expiresAt: DateTime.addDuration(now, authorizationCodeTtl),
      redirectUriGiven: request.redirectUriGiven
    }
  )
  return authorizationResponse(request.redirectUri, { code, state: request.state }, settings.issuer)
})

/** The person refused: the URL to send the browser back to. */
export const denyAuthorization = Effect.fn("denyAuthorization")(function* (request: AuthorizationRequest) {
  const settings = yield* OAuthSettings
  return authorizationResponse(
    request.redirectUri,
    { error: "access_denied", error_description: "the person did not allow access", state: request.state },
    settings.issuer
  )
})

// ----- Tokens -----

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/u, "")

/** Whether a PKCE verifier (RFC 7636: 43-128 unreserved characters) matches an S256 challenge. */
export const pkceMatches = (verifier: string, challenge: string) =>
  /^[A-Za-z0-9._~-]{43,128}$/u.test(verifier)
    ? Effect.map(
        Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
        (digest) => base64url(digest) === challenge
      )
    : Effect.succeed(false)

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

const newPair = Effect.gen(function* () {
  const settings = yield* OAuthSettings
  const now = yield* DateTime.now
  const pair: TokenPair = {
    access: oauthTokenPrefix.access + newOpaqueToken(),
    accessExpiresAt: DateTime.addDuration(now, settings.accessTokenTtl),
    refresh: oauthTokenPrefix.refresh + newOpaqueToken(),
    refreshExpiresAt: DateTime.addDuration(now, settings.refreshTokenTtl)
  }
  return { pair, now, expiresIn: Duration.toSeconds(settings.accessTokenTtl) }
})

const response = (pair: TokenPair, expiresIn: number, scope: string): TokenResponse => ({
  access_token: pair.access,
  token_type: "Bearer",
  expires_in: expiresIn,
  refresh_token: pair.refresh,
  scope
})

const grantMismatch = (grant: CodeGrant, form: Readonly<Record<string, string | undefined>>, resource: string) =>
  grant.clientId !== form["client_id"]
    ? "the code was issued to another client"
    : (grant.redirectUriGiven || form["redirect_uri"] !== undefined) && grant.redirectUri !== form["redirect_uri"]
      ? "redirect_uri is not the one of the authorization request"
      : grant.resource !== resource
        ? "resource is not the one of the authorization request"
        : undefined

/**
 * The token endpoint (RFC 6749 §3.2, OAuth 2.1): `authorization_code` with its PKCE verifier, or `refresh_token`
 * (rotated: a spent refresh token, or a code used twice, revokes the whole grant).
 */
export const exchangeToken = Effect.fn("exchangeToken")(function* (form: Readonly<Record<string, string | undefined>>) {
  const settings = yield* OAuthSettings
  const store = yield* OAuthStore
  const textual = parametersProblem(form)
  if (textual !== undefined) return yield* fail("invalid_request", textual)
  const resource = form["resource"] ?? settings.resource
  if (resource !== settings.resource) return yield* fail("invalid_target", `resource must be ${settings.resource}`)
  const clientId = form["client_id"]
  if (clientId === undefined || clientId === "") return yield* fail("invalid_request", "client_id is required")
  switch (form["grant_type"]) {
    case "authorization_code": {
      const { pair, now, expiresIn } = yield* newPair
      const redeemed = yield* store.redeemCode(form["code"] ?? "", now)
      if (redeemed._tag !== "Redeemed") {
        return yield* redeemed._tag === "Reused"
          ? fail("invalid_grant", "the code was already used: its grant is revoked")
          : fail("invalid_grant", "unknown or expired code")
      }
      const mismatch = grantMismatch(redeemed.grant, form, resource)
      if (mismatch !== undefined) return yield* fail("invalid_grant", mismatch)
      if (!(yield* pkceMatches(form["code_verifier"] ?? "", redeemed.grant.codeChallenge))) {
        return yield* fail("invalid_grant", "code_verifier does not match the code_challenge")
      }
      yield* store.issueTokens(redeemed.grant.grantId, pair, now)
      return response(pair, expiresIn, redeemed.grant.scope)
    }
    case "refresh_token": {
      const { pair, now, expiresIn } = yield* newPair
      const rotated = yield* store.rotateRefresh(form["refresh_token"] ?? "", clientId, pair, now)
      if (rotated._tag !== "Rotated") {
        return yield* rotated._tag === "Reused"
          ? fail("invalid_grant", "the refresh token was already used: its grant is revoked")
          : fail("invalid_grant", "unknown, expired or revoked refresh token")
      }
      if (rotated.resource !== resource) return yield* fail("invalid_target", "resource is not the grant's")
      return response(pair, expiresIn, rotated.scope)
    }
    default:
      return yield* fail("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
  }
})
