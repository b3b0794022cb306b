/**
 * Redirect URIs: which a client may register (https, http on a loopback host, a native app's private-use scheme),
 * where one returns to (the consent page's `form-action`), and which requested URI matches a registered one.
 */
import { Result } from "effect"
import { authorityProblem, isLoopbackHost, parseHostName } from "./HostName.ts"
import { textProblem } from "./Text.ts"

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
