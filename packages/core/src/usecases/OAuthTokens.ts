/**
 * The token and revocation endpoints: a code exchanged once with its PKCE verifier, refresh tokens rotated on every
 * use (reuse revokes the grant), tokens revoked by their client (RFC 7009).
 */
import { DateTime, Duration, Effect, Schema } from "effect"
import { Base64Url } from "effect/encoding"
import type { UrlParams } from "effect/http"
import { type CodeGrant, OAuthStore, type TokenPair } from "../ports/OAuthStore.ts"
import { newOpaqueToken, oauthTokenPrefix } from "../Secrets.ts"
import { OAuthError } from "../OAuthError.ts"
import { decodeOAuthParams, ParamText, RequiredParam } from "../OAuthParams.ts"
import { OAuthSettings } from "../OAuthSettings.ts"

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
  client_id: RequiredParam,
  grant_type: Schema.Literals(["authorization_code", "refresh_token"])
    .annotate({ message: "must be authorization_code or refresh_token" })
    .annotateKey({ messageMissingKey: "is required (authorization_code or refresh_token)" }),
  code: Schema.optionalKey(ParamText),
  code_verifier: Schema.optionalKey(ParamText),
  redirect_uri: Schema.optionalKey(ParamText),
  refresh_token: Schema.optionalKey(ParamText),
  resource: Schema.optionalKey(ParamText),
  scope: Schema.optionalKey(ParamText)
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

const invalidGrant = (description: string) => new OAuthError({ error: "invalid_grant", description })

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
  if (resource !== settings.resource) {
    return yield* new OAuthError({ error: "invalid_target", description: `resource must be ${settings.resource}` })
  }
  const { pair, now, expiresIn } = yield* newPair
  if (form.grant_type === "authorization_code") {
    const redeemed = yield* store.redeemCode(form.code ?? "", now)
    if (redeemed._tag !== "Redeemed") {
      return yield* redeemed._tag === "Reused"
        ? invalidGrant("the code was already used: its grant is revoked")
        : invalidGrant("unknown or expired code")
    }
    const mismatch = grantMismatch(redeemed.grant, form, resource)
    if (mismatch !== undefined) return yield* invalidGrant(mismatch)
    if (!(yield* pkceMatches(form.code_verifier ?? "", redeemed.grant.codeChallenge))) {
      return yield* invalidGrant("code_verifier does not match the code_challenge")
    }
    yield* store.issueTokens(redeemed.grant.grantId, pair, now)
    return response(pair, expiresIn, redeemed.grant.scope)
  }
  const rotated = yield* store.rotateRefresh(form.refresh_token ?? "", form.client_id, pair, now)
  if (rotated._tag !== "Rotated") {
    return yield* rotated._tag === "Reused"
      ? invalidGrant("the refresh token was already used: its grant is revoked")
      : invalidGrant("unknown, expired or revoked refresh token")
  }
  if (rotated.resource !== resource) {
    return yield* new OAuthError({ error: "invalid_target", description: "resource is not the grant's" })
  }
  return response(pair, expiresIn, rotated.scope)
})

/** A revocation request's form (RFC 7009 §2.1): the token, an optional hint (read by no one), the public client. */
const RevocationParams = Schema.Struct({
  token: RequiredParam,
  token_type_hint: Schema.optionalKey(ParamText),
  client_id: RequiredParam
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
