/**
 * The authorization endpoint (code flow with PKCE S256 only): an authorization request checked for the signed-in
 * account (shown when the client part is wrong, redirected when the request part is), then the person's answer
 * (approve: a grant and its code; deny: `access_denied`), sent back to the client's redirect URI with `iss`.
 */
import { Data, DateTime, Duration, Effect, Schema } from "effect"
import type { UrlParams } from "effect/http"
import type { AccountId } from "../Ids.ts"
import { type OAuthClient, OAuthStore } from "../ports/OAuthStore.ts"
import { newOpaqueToken } from "../Secrets.ts"
import { resolveClient } from "./OAuthClients.ts"
import { OAuthError, type OAuthErrorCode } from "../OAuthError.ts"
import { decodeOAuthParams, decodeOAuthWith, ParamText, RequiredParam } from "../OAuthParams.ts"
import { mcpScope, OAuthSettings } from "../OAuthSettings.ts"
import { redirectUriMatches, redirectUriProblem } from "../RedirectUri.ts"

/** How long an authorization code can be exchanged (once). */
export const authorizationCodeTtl = Duration.minutes(5)

/** The parameters of an authorization request, each once and text: what the consent form carries back. */
const AuthorizationParams = Schema.Struct({
  response_type: Schema.optionalKey(ParamText),
  client_id: Schema.optionalKey(ParamText),
  redirect_uri: Schema.optionalKey(ParamText),
  state: Schema.optionalKey(ParamText),
  scope: Schema.optionalKey(ParamText),
  code_challenge: Schema.optionalKey(ParamText),
  code_challenge_method: Schema.optionalKey(ParamText),
  resource: Schema.optionalKey(ParamText)
})
export type AuthorizationParams = typeof AuthorizationParams.Type

/** The client part of an authorization request: its errors are shown on the page, never redirected to. */
const ClientParams = Schema.Struct({ client_id: RequiredParam, redirect_uri: Schema.optionalKey(ParamText) })

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
    code_challenge: ParamText.check(
      Schema.isPattern(challengePattern, { message: "must be an S256 challenge: 43 base64url characters" })
    ).annotateKey(pkceRequired),
    resource: Schema.optionalKey(Schema.Literal(resource).annotate({ message: `must be ${resource}` })),
    scope: Schema.optionalKey(
      ParamText.check(
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
    state: Schema.optionalKey(ParamText)
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
    const given = yield* decodeOAuthWith(ClientParams)(parameters)
    const client = yield* resolveClient(given.client_id, account)
    const redirectUri = given.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined)
    if (
      redirectUri === undefined ||
      redirectUriProblem(redirectUri) !== undefined ||
      !client.redirectUris.some((registered) => redirectUriMatches(registered, redirectUri))
    ) {
      return yield* new OAuthError({
        error: "invalid_request",
        description: "redirect_uri is not one the client registered"
      })
    }
    return yield* decodeOAuthWith(
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
