import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Account } from "../Account.ts"
import type { AccountId, GrantId } from "../Ids.ts"

/** A registered OAuth client (Dynamic Client Registration, RFC 7591): public, with exact redirect URIs. */
export interface OAuthClient {
  readonly clientId: string
  readonly clientName: string
  readonly redirectUris: ReadonlyArray<string>
  readonly createdAt: DateTime.Utc
}

/** What a person allowed on the consent page: one client's access to their account, for one resource. */
export interface GrantRequest {
  readonly accountId: AccountId
  readonly clientId: string
  readonly clientName: string
  readonly redirectUri: string
  /** The protected resource (RFC 8707) the tokens are for: the server's `/mcp` URL. */
  readonly resource: string
  readonly scope: string
  readonly createdAt: DateTime.Utc
}

/** A grant as the dashboard lists it ("connected apps"). */
export interface GrantInfo {
  readonly grantId: GrantId
  readonly clientId: string
  readonly clientName: string
  readonly redirectUri: string
  readonly createdAt: DateTime.Utc
  /** When the grant was made or a token of it last issued (a code exchanged or a refresh). */
  readonly lastUsedAt: DateTime.Utc | null
}

/** The grant an authorization code was issued for, with the code's PKCE challenge (S256). */
export interface CodeGrant {
  readonly grantId: GrantId
  readonly clientId: string
  readonly redirectUri: string
  readonly resource: string
  readonly scope: string
  readonly codeChallenge: string
  /** Whether the authorization request named its redirect URI: then the token request must name the same. */
  readonly redirectUriGiven: boolean
}

/** A new pair of tokens of a grant (secrets in clear: the store keeps their hashes). */
export interface TokenPair {
  readonly access: string
  readonly accessExpiresAt: DateTime.Utc
  readonly refresh: string
  readonly refreshExpiresAt: DateTime.Utc
}

/**
 * OAuth 2.1 authorization server state: registered clients, grants, one-time authorization codes and rotating
 * refresh tokens. Secrets (codes, tokens) are passed in clear and stored hashed. A grant revoked (by its owner, or
 * because a code or a refresh token was used twice) ends every token of it at once.
 */
export class OAuthStore extends Context.Service<
  OAuthStore,
  {
    readonly saveClient: (client: OAuthClient) => Effect.Effect<void>
    /** Deletes clients registered before `before` that were never granted (up to 1,000 a call); how many went. */
    readonly forgetUnusedClients: (before: DateTime.Utc) => Effect.Effect<number>
    readonly findClient: (clientId: string) => Effect.Effect<Option.Option<OAuthClient>>
    /** Records a grant and its first authorization code (valid until `codeExpiresAt`, once). */
    readonly createGrant: (
      grant: GrantRequest,
      code: {
        readonly code: string
        readonly challenge: string
        readonly expiresAt: DateTime.Utc
        readonly redirectUriGiven: boolean
      }
    ) => Effect.Effect<GrantId>
    /**
     * Uses an authorization code: its grant when the code is unused, unexpired and the grant is not revoked. A code
     * used a second time revokes its grant (RFC 9700: the tokens issued with it may be an attacker's) and gives
     * `reused`. Atomic.
     */
    readonly redeemCode: (
      code: string,
      now: DateTime.Utc
    ) => Effect.Effect<
      { readonly _tag: "Redeemed"; readonly grant: CodeGrant } | { readonly _tag: "Reused" | "Unknown" }
    >
    /** Adds a token pair to a grant (after a code was redeemed). */
    readonly issueTokens: (grantId: GrantId, tokens: TokenPair, now: DateTime.Utc) => Effect.Effect<void>
    /**
     * Spends a refresh token and adds the next pair to its grant, for `clientId`. A refresh token spent before
     * revokes its grant and gives `reused`; an expired or unknown one, or another client's, gives `unknown`. Atomic.
     */
    readonly rotateRefresh: (
      refresh: string,
      clientId: string,
      next: TokenPair,
      now: DateTime.Utc
    ) => Effect.Effect<
      | { readonly _tag: "Rotated"; readonly resource: string; readonly scope: string }
      | { readonly _tag: "Reused" | "Unknown" }
    >
    /** The account and resource of an unexpired access token of a grant not revoked. */
    readonly accessToken: (
      token: string,
      now: DateTime.Utc
    ) => Effect.Effect<
      Option.Option<{ readonly account: Account; readonly resource: string; readonly clientId: string }>
    >
    /**
     * Revokes the grant of an unexpired access or refresh token (spent or not) of `clientId`'s (RFC 7009: a token
     * revoked ends its grant); false when there is none: unknown, expired, another client's, or revoked already.
     */
    readonly revokeByToken: (token: string, clientId: string, now: DateTime.Utc) => Effect.Effect<boolean>
    /** An account's grants not revoked, newest first. */
    readonly grants: (accountId: AccountId) => Effect.Effect<ReadonlyArray<GrantInfo>>
    /** Revokes one of an account's grants; false when it has no such grant (or it was revoked). */
    readonly revokeGrant: (accountId: AccountId, grantId: GrantId, now: DateTime.Utc) => Effect.Effect<boolean>
  }
>()("@tenders/core/OAuthStore") {}
