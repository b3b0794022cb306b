/** OAuth failures in the RFCs' terms: one code of a closed list, and a description for the client's developer. */
import { Schema } from "effect"

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
