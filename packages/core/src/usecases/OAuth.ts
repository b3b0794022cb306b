import {
  Config,
  ConfigProvider,
  Context,
  Data,
  DateTime,
  Duration,
  Effect,
  Option,
  Result,
  Schema,
  SchemaIssue
} from "effect"
import { Base64Url } from "effect/encoding"
import { UrlParams } from "effect/http"
import { type Account, keyPattern } from "../Account.ts"
import { Unauthorized } from "../Errors.ts"
import { authorityProblem, isLoopbackHost, parseHostName } from "../HostName.ts"
import type { AccountId } from "../Ids.ts"
import { type CodeGrant, type OAuthClient, OAuthStore, type TokenPair } from "../ports/OAuthStore.ts"
import { isText, labelProblem, textProblem } from "../Text.ts"
import { authenticateCaller } from "./AuthorizeCall.ts"
import { newOpaqueToken } from "../Secrets.ts"

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
  }
>()("@tenders/core/OAuthSettings") {}

/** The settings for a public URL, with the default token lifetimes (15 minutes; 30 days for refresh tokens). */
export const oauthSettingsFor = (publicUrl: URL): OAuthSettings["Service"] => {
  const issuer = publicUrl.href.replace(/\/+$/u, "")
  return {
    issuer,
    resource: `${issuer}/mcp`,
    accessTokenTtl: Duration.minutes(15),
    refreshTokenTtl: Duration.days(30)
  }
}

/**
 * The settings from the environment: `TENDERS_OAUTH_ACCESS_TTL` (how long an access token works; 15 minutes unless
 * set, at most a day), for the public URL.
 */
export const oauthSettingsConfig = (publicUrl: URL): Config.Config<OAuthSettings["Service"]> =>
  Config.Duration("TENDERS_OAUTH_ACCESS_TTL").pipe(
    Config.withDefault(Duration.minutes(15)),
    Config.mapEffect((ttl) =>
      Duration.isGreaterThan(ttl, Duration.zero) && Duration.isLessThanOrEqualTo(ttl, Duration.days(1))
        ? Effect.succeed({ ...oauthSettingsFor(publicUrl), accessTokenTtl: ttl })
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

/** The error codes this authorization server answers (RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2, RFC 8707). */
export const OAuthErrorCode = Schema.Literals([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
  "invalid_redirect_uri",
  "invalid_client_metadata",
  "unsupported_response_type",
  "access_denied",
  "temporarily_unavailable"
])
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/**
 * An OAuth failure in the RFCs' terms: the token, revocation and registration endpoints answer
 * `{ "error", "error_description" }`, and the authorization endpoint redirects with them. `retryAfter`: the seconds
 * to wait, when a limit refused the request.
 */
export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  error: OAuthErrorCode,
  description: Schema.String,
  retryAfter: Schema.optionalKey(Schema.Number)
}) {}

const fail = (error: OAuthErrorCode, description: string) => Effect.fail(new OAuthError({ error, description }))

/** The one answer about a Client ID Metadata Document that could not be used: why is logged, never told. */
export const unusableMetadataDocument = () =>
  new OAuthError({ error: "invalid_client", description: "the client metadata document could not be used" })

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

// ----- Parameters: decoded with Schema, each given once -----

const issueFormatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a decoding as an `OAuthError`: its path and message, with the code `codeOf` gives its key. */
const oauthErrorOf = (issue: SchemaIssue.Issue, codeOf: (key: string | undefined) => OAuthErrorCode) => {
  const [first] = issueFormatter(issue).issues
  const keys = first?.path ?? []
  const path = keys.map((key) => (typeof key === "number" ? `[${key}]` : String(key))).join("")
  const key = keys[0]
  return new OAuthError({
    error: codeOf(key === undefined ? undefined : String(key)),
    description: path === "" ? (first?.message ?? "invalid") : `${path} ${first?.message ?? "is invalid"}`
  })
}

/** Decodes with `schema`, its first issue as an `OAuthError`. */
const decodeWith =
  <S extends Schema.Top>(schema: S, codeOf: (key: string | undefined) => OAuthErrorCode) =>
  (input: unknown) =>
    Schema.decodeUnknownEffect(schema)(input).pipe(Effect.mapError((error) => oauthErrorOf(error.issue, codeOf)))

const invalidRequest = () => "invalid_request" as const

/**
 * The parameters of an OAuth request as `schema` decodes them, each given at most once (RFC 6749 §3.1: a parameter
 * given twice is refused, not read as absent); parameters it does not name are ignored. Fails with `invalid_request`,
 * or the code `codeOf` gives the first parameter at fault. Every OAuth endpoint reads its query or form with it.
 */
export const decodeOAuthParams =
  <S extends Schema.Struct<Schema.Struct.Fields>>(
    schema: S,
    codeOf: (key: string | undefined) => OAuthErrorCode = invalidRequest
  ) =>
  (params: UrlParams.UrlParams): Effect.Effect<S["Type"], OAuthError, S["DecodingServices"]> => {
    const names = Object.keys(schema.fields)
    const repeated = names.filter((name) => UrlParams.getAll(params, name).length > 1)
    if (repeated.length > 0) return fail("invalid_request", `${repeated.join(", ")} given more than once`)
    const given = names.flatMap((name) =>
      Option.toArray(Option.map(UrlParams.getFirst(params, name), (v) => [name, v]))
    )
    return decodeWith(schema, codeOf)(Object.fromEntries(given))
  }

/** A parameter's value: text by core's rule (`textProblem`). */
const Text = Schema.String.check(isText())
/** A required parameter: text, not empty. */
const Required = Text.check(
  Schema.makeFilter((text: string) => (text === "" ? "must not be empty" : true))
).annotateKey({
  messageMissingKey: "is required"
})

// ----- Clients: Dynamic Client Registration (RFC 7591) and Client ID Metadata Documents -----

// A private-use scheme of a native app, with a dot (com.example.app:/callback; RFC 8252 §7.1).
const privateScheme = /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/u

/**
 * Where a redirect URI returns to, as a CSP source built from its checked parts only: `scheme://host[:port]` for
 * https (a host by core's rule, not one label) and http on a loopback host, the scheme for a native app's private-use
 * scheme (RFC 8252 §7.1; a host, if it names one, by core's rule). No whitespace, credentials or fragment.
 * Fails with why the URI is refused.
 */
export const redirectOrigin = (uri: string): Result.Result<string, string> => {
  const textual = textProblem(uri)
  if (textual !== undefined) return Result.fail(textual)
  if (/\s/u.test(uri)) return Result.fail("must not contain spaces")
  if (uri.includes("#")) return Result.fail("must not have a fragment")
  if (!URL.canParse(uri)) return Result.fail("is not a URL")
  const url = new URL(uri)
  if (url.username !== "" || url.password !== "") return Result.fail("must not carry credentials")
  if (privateScheme.test(url.protocol)) {
    if (url.hostname === "") return Result.succeed(url.protocol)
    return Result.map(parseHostName(url.hostname, { singleLabel: true }), () => url.protocol)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return Result.fail(`must not use the scheme ${url.protocol}`)
  const authority = authorityProblem(uri)
  if (authority !== undefined) return Result.fail(authority)
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return Result.fail("must be https: http is allowed for loopback hosts only")
  }
  return Result.map(
    parseHostName(url.hostname, { singleLabel: url.protocol === "http:" }),
    (host) => `${url.protocol}//${host}${url.port === "" ? "" : `:${url.port}`}`
  )
}

/** Why a redirect URI is refused (`redirectOrigin`'s rule), or undefined when it is accepted. */
export const redirectUriProblem = (uri: string): string | undefined =>
  Result.match(redirectOrigin(uri), { onFailure: (problem) => problem, onSuccess: () => undefined })

// An http redirect URI's scheme and host, and its port if it has one.
const httpAuthority = /^(http:\/\/([^/?#:[\]]+|\[[^\]]*\]))(?::\d{1,5})?(?=[/?]|$)/u
/** A loopback redirect URI's text without its port (core's loopback hosts), or undefined for any other URI. */
const withoutLoopbackPort = (uri: string) => {
  const match = httpAuthority.exec(uri)
  return match === null || !isLoopbackHost(match[2] ?? "")
    ? undefined
    : `${match[1] ?? ""}${uri.slice(match[0].length)}`
}

/**
 * Whether a requested redirect URI is a registered one: the same text, except that an http loopback redirect URI may
 * name any port (RFC 8252 §7.3: a native app listens on the port the system gives it when it asks).
 */
export const redirectUriMatches = (registered: string, requested: string): boolean => {
  if (registered === requested) return true
  const base = withoutLoopbackPort(registered)
  return base !== undefined && base === withoutLoopbackPort(requested)
}

const RedirectUri = Schema.String.check(Schema.makeFilter((uri: string) => redirectUriProblem(uri) ?? true))

/**
 * The client metadata we read (RFC 7591 §2; other members are ignored), with our rules: a public client
 * (`token_endpoint_auth_method: none`) of the code flow, 1 to 10 redirect URIs by `redirectOrigin`'s rule, a name
 * fit to be shown (`labelProblem`: no control or format character).
 */
const ClientMetadata = Schema.Struct({
  client_id: Schema.optionalKey(Text),
  client_name: Schema.optionalKey(Schema.String.check(Schema.makeFilter((name: string) => labelProblem(name) ?? true))),
  token_endpoint_auth_method: Schema.optionalKey(
    Schema.Literal("none").annotate({ message: 'must be "none" (a public client)' })
  ),
  grant_types: Schema.optionalKey(
    Schema.Array(
      Schema.Literals(["authorization_code", "refresh_token"]).annotate({
        message: "must be authorization_code or refresh_token"
      })
    ).check(
      Schema.makeFilter((grants) => (grants.includes("authorization_code") ? true : "must include authorization_code"))
    )
  ),
  response_types: Schema.optionalKey(Schema.Array(Schema.Literal("code").annotate({ message: 'must be "code"' }))),
  redirect_uris: Schema.Array(RedirectUri)
    .check(Schema.isMinLength(1, { message: "must name from 1 to 10 redirect URIs" }))
    .check(Schema.isMaxLength(10, { message: "must name from 1 to 10 redirect URIs" }))
    .annotateKey({ messageMissingKey: "is required (from 1 to 10 redirect URIs)" })
}).annotate({ message: "the client metadata must be a JSON object" })

/** Decodes client metadata (registration or metadata document): its redirect URIs' faults are `invalid_redirect_uri`. */
const checkMetadata = (metadata: unknown) =>
  decodeWith(ClientMetadata, (key) => (key === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata"))(
    metadata
  ).pipe(
    Effect.map((m) => {
      // At most 100 characters (code points, never half a surrogate pair).
      const name = Array.from((m.client_name ?? "").trim())
        .slice(0, 100)
        .join("")
      const first = new URL(m.redirect_uris[0] ?? "")
      return { metadata: m, clientName: name !== "" ? name : first.host !== "" ? first.host : first.protocol }
    })
  )

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

/**
 * Fetches a Client ID Metadata Document (an https `client_id` URL), through the webhooks' address guard, for the
 * signed-in account that opened the consent page (fetches are limited per account).
 */
export class ClientMetadataDocuments extends Context.Service<
  ClientMetadataDocuments,
  { readonly fetch: (url: string, account: AccountId) => Effect.Effect<unknown, OAuthError> }
>()("@tenders/core/ClientMetadataDocuments") {}

/**
 * Whether a client id is a metadata document's URL: https to a host by core's host rule (not one label), with a
 * path, no credentials or fragment.
 */
export const isMetadataDocumentId = (clientId: string): boolean => {
  if (!URL.canParse(clientId) || clientId.includes("#") || authorityProblem(clientId) !== undefined) return false
  const url = new URL(clientId)
  return (
    url.protocol === "https:" &&
    url.pathname !== "/" &&
    url.username === "" &&
    url.password === "" &&
    Result.isSuccess(parseHostName(url.hostname, { singleLabel: false }))
  )
}

/**
 * The client of a `client_id`: fetched (for `account`) from its metadata document, which must name itself, or
 * registered. What was wrong with a document is logged for the operator, not told (it may come from an internal host).
 */
export const resolveClient = Effect.fn("resolveClient")(function* (clientId: string, account: AccountId) {
  if (isMetadataDocumentId(clientId)) {
    const document = yield* (yield* ClientMetadataDocuments).fetch(clientId, account)
    const { metadata, clientName } = yield* checkMetadata(document).pipe(
      Effect.filterOrFail(
        ({ metadata }) => metadata.client_id === clientId,
        () => new OAuthError({ error: "invalid_client", description: "its client_id is not its own URL" })
      ),
      Effect.tapError((error) =>
        Effect.logWarning(`client metadata document ${clientId} not used: ${error.description}`)
      ),
      Effect.mapError(unusableMetadataDocument)
    )
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

/** The parameters of an authorization request, each once and text: what the consent form carries back. */
const AuthorizationParams = Schema.Struct({
  response_type: Schema.optionalKey(Text),
  client_id: Schema.optionalKey(Text),
  redirect_uri: Schema.optionalKey(Text),
  state: Schema.optionalKey(Text),
  scope: Schema.optionalKey(Text),
  code_challenge: Schema.optionalKey(Text),
  code_challenge_method: Schema.optionalKey(Text),
  resource: Schema.optionalKey(Text)
})
export type AuthorizationParams = typeof AuthorizationParams.Type

/** The client part of an authorization request: its errors are shown on the page, never redirected to. */
const ClientParams = Schema.Struct({ client_id: Required, redirect_uri: Schema.optionalKey(Text) })

const challengePattern = /^[A-Za-z0-9_-]{43}$/u
const pkceRequired = { messageMissingKey: "is required (PKCE S256)" }

/** The request part of an authorization request, for the resource: its errors are redirected to the client. */
const requestParams = (resource: string) =>
  Schema.Struct({
    response_type: Schema.Literal("code")
      .annotate({ message: 'must be "code"' })
      .annotateKey({ messageMissingKey: 'is required ("code")' }),
    code_challenge_method: Schema.Literal("S256")
      .annotate({ message: "must be S256 (PKCE)" })
      .annotateKey(pkceRequired),
    code_challenge: Text.check(
      Schema.isPattern(challengePattern, { message: "must be an S256 challenge: 43 base64url characters" })
    ).annotateKey(pkceRequired),
    resource: Schema.optionalKey(Schema.Literal(resource).annotate({ message: `must be ${resource}` })),
    scope: Schema.optionalKey(
      Text.check(
        Schema.makeFilter((scope: string) =>
          scope
            .split(" ")
            .filter((s) => s !== "" && s !== "offline_access")
            .every((s) => s === mcpScope)
            ? true
            : `must be "${mcpScope}", the only scope`
        )
      )
    ),
    state: Schema.optionalKey(Text)
  })

/** The RFC code of a fault in an authorization request's parameter. */
const requestErrorCode = (key: string | undefined): OAuthErrorCode =>
  key === "response_type"
    ? "unsupported_response_type"
    : key === "scope"
      ? "invalid_scope"
      : key === "resource"
        ? "invalid_target"
        : "invalid_request"

/** An authorization request, checked: the client, and what the consent page shows and the code is bound to. */
export interface AuthorizationRequest {
  readonly client: OAuthClient
  /** The redirect URI requested (a registered one, or one of its loopback ports), where the answer goes. */
  readonly redirectUri: string
  /** Whether the request named its redirect URI (the token request must then name it too). */
  readonly redirectUriGiven: boolean
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly resource: string
  readonly scope: string
}

/** What an authorization request comes to. */
export type AuthorizationCheck = Data.TaggedEnum<{
  /** Shown on the page, never redirected: a malformed request, an unknown client, a redirect URI not its own. */
  Invalid: { readonly message: string; readonly retryAfter: number | undefined }
  /** An error for the client at its verified redirect URI (`url`), followed only by the person's click. */
  Redirect: { readonly url: string; readonly description: string }
  /** Ask the person; `parameters` are the request's, for the consent form to carry back. */
  Valid: { readonly request: AuthorizationRequest; readonly parameters: AuthorizationParams }
}>
export const AuthorizationCheck = Data.taggedEnum<AuthorizationCheck>()

/**
 * Checks an authorization request (its query, or the consent form) for the signed-in account: each parameter once and
 * text, then the client part (`Invalid` when wrong), then the request part (`Redirect` when wrong); else `Valid`.
 */
export const checkAuthorization = Effect.fn("checkAuthorization")(function* (
  params: UrlParams.UrlParams,
  account: AccountId
) {
  const settings = yield* OAuthSettings
  return yield* Effect.gen(function* () {
    const parameters = yield* decodeOAuthParams(AuthorizationParams)(params)
    const given = yield* decodeWith(ClientParams, invalidRequest)(parameters)
    const client = yield* resolveClient(given.client_id, account)
    const redirectUri = given.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined)
    if (
      redirectUri === undefined ||
      redirectUriProblem(redirectUri) !== undefined ||
      !client.redirectUris.some((registered) => redirectUriMatches(registered, redirectUri))
    ) {
      return yield* fail("invalid_request", "redirect_uri is not one the client registered")
    }
    return yield* decodeWith(
      requestParams(settings.resource),
      requestErrorCode
    )(parameters).pipe(
      Effect.map((request) =>
        AuthorizationCheck.Valid({
          request: {
            client,
            redirectUri,
            redirectUriGiven: given.redirect_uri !== undefined,
            state: request.state,
            codeChallenge: request.code_challenge,
            resource: request.resource ?? settings.resource,
            scope: mcpScope
          },
          parameters
        })
      ),
      Effect.catchTag("OAuthError", (error) =>
        Effect.succeed(
          AuthorizationCheck.Redirect({
            url: authorizationResponse(
              redirectUri,
              { error: error.error, error_description: error.description, state: parameters.state },
              settings.issuer
            ),
            description: error.description
          })
        )
      )
    )
  }).pipe(
    Effect.catchTag("OAuthError", (error) =>
      Effect.succeed(AuthorizationCheck.Invalid({ message: error.description, retryAfter: error.retryAfter }))
    )
  )
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
  const error: OAuthErrorCode = "access_denied"
  return authorizationResponse(
    request.redirectUri,
    { error, error_description: "the person did not allow access", state: request.state },
    settings.issuer
  )
})

// ----- Tokens -----

/** Whether a PKCE verifier (RFC 7636: 43-128 unreserved characters) matches an S256 challenge. */
export const pkceMatches = (verifier: string, challenge: string) =>
  /^[A-Za-z0-9._~-]{43,128}$/u.test(verifier)
    ? Effect.map(
        Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
        (digest) => Base64Url.encode(new Uint8Array(digest)) === challenge
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

/** A token request's form (RFC 6749 §4.1.3, §6): `grant_type`'s faults are `unsupported_grant_type`. */
const TokenParams = Schema.Struct({
  client_id: Required,
  grant_type: Schema.Literals(["authorization_code", "refresh_token"])
    .annotate({ message: "must be authorization_code or refresh_token" })
    .annotateKey({ messageMissingKey: "is required (authorization_code or refresh_token)" }),
  code: Schema.optionalKey(Text),
  code_verifier: Schema.optionalKey(Text),
  redirect_uri: Schema.optionalKey(Text),
  refresh_token: Schema.optionalKey(Text),
  resource: Schema.optionalKey(Text),
  scope: Schema.optionalKey(Text)
})
type TokenParams = typeof TokenParams.Type

const grantMismatch = (grant: CodeGrant, form: TokenParams, resource: string) =>
  grant.clientId !== form.client_id
    ? "the code was issued to another client"
    : (grant.redirectUriGiven || form.redirect_uri !== undefined) && grant.redirectUri !== form.redirect_uri
      ? "redirect_uri is not the one of the authorization request"
      : grant.resource !== resource
        ? "resource is not the one of the authorization request"
        : undefined

/**
 * The token endpoint (RFC 6749 §3.2, OAuth 2.1) on its form: `authorization_code` with its PKCE verifier, or
 * `refresh_token` (rotated: a spent refresh token, or a code used twice, revokes the whole grant).
 */
export const exchangeToken = Effect.fn("exchangeToken")(function* (params: UrlParams.UrlParams) {
  const settings = yield* OAuthSettings
  const store = yield* OAuthStore
  const form = yield* decodeOAuthParams(TokenParams, (key) =>
    key === "grant_type" ? "unsupported_grant_type" : "invalid_request"
  )(params)
  const resource = form.resource ?? settings.resource
  if (resource !== settings.resource) return yield* fail("invalid_target", `resource must be ${settings.resource}`)
  const { pair, now, expiresIn } = yield* newPair
  if (form.grant_type === "authorization_code") {
    const redeemed = yield* store.redeemCode(form.code ?? "", now)
    if (redeemed._tag !== "Redeemed") {
      return yield* redeemed._tag === "Reused"
        ? fail("invalid_grant", "the code was already used: its grant is revoked")
        : fail("invalid_grant", "unknown or expired code")
    }
    const mismatch = grantMismatch(redeemed.grant, form, resource)
    if (mismatch !== undefined) return yield* fail("invalid_grant", mismatch)
    if (!(yield* pkceMatches(form.code_verifier ?? "", redeemed.grant.codeChallenge))) {
      return yield* fail("invalid_grant", "code_verifier does not match the code_challenge")
    }
    yield* store.issueTokens(redeemed.grant.grantId, pair, now)
    return response(pair, expiresIn, redeemed.grant.scope)
  }
  const rotated = yield* store.rotateRefresh(form.refresh_token ?? "", form.client_id, pair, now)
  if (rotated._tag !== "Rotated") {
    return yield* rotated._tag === "Reused"
      ? fail("invalid_grant", "the refresh token was already used: its grant is revoked")
      : fail("invalid_grant", "unknown, expired or revoked refresh token")
  }
  if (rotated.resource !== resource) return yield* fail("invalid_target", "resource is not the grant's")
  return response(pair, expiresIn, rotated.scope)
})

/** A revocation request's form (RFC 7009 §2.1): the token, an optional hint (read by no one), the public client. */
const RevocationParams = Schema.Struct({
  token: Required,
  token_type_hint: Schema.optionalKey(Text),
  client_id: Required
})

/**
 * The revocation endpoint (RFC 7009) on its form: an access or refresh token of the client revokes its whole grant
 * (§2.1 allows it; "connected apps" revoke grants too). An unknown, expired or already revoked token, or one of
 * another client (left alone), is no error (§2.2): whether a grant was revoked is for tests and logs only.
 */
export const revokeToken = Effect.fn("revokeToken")(function* (params: UrlParams.UrlParams) {
  const form = yield* decodeOAuthParams(RevocationParams)(params)
  return yield* (yield* OAuthStore).revokeByToken(form.token, form.client_id, yield* DateTime.now)
})
