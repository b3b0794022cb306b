/**
 * Where a client learns how to get a token for `/mcp`: the protected resource's metadata (RFC 9728) and the
 * authorization server's (RFC 8414), with the endpoints' paths.
 */
import { mcpScope, oauthAuthorizationPath, type OAuthSettings } from "@tenders/core"

export const tokenPath = "/oauth/token"
export const registrationPath = "/oauth/register"
export const revocationPath = "/oauth/revoke"

/** Where the protected resource's metadata is (RFC 9728 §3.1: the well-known path before the resource's path). */
export const protectedResourceMetadataUrl = (resource: string): string => {
  const url = new URL(resource)
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === "/" ? "" : url.pathname}`
}

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
