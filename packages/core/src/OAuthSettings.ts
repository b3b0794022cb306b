/**
 * What the OAuth 2.1 authorization server of `/mcp` is: its issuer and protected resource (from the public URL), its
 * token lifetimes, its one scope and where its authorization endpoint is.
 */
import { Config, ConfigProvider, Context, Duration, Effect } from "effect"

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

/** The one scope: use the MCP tools as the account. */
export const mcpScope = "mcp"
