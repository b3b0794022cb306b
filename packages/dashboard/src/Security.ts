import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { createHash, timingSafeEqual } from "node:crypto"
import { field, formOf } from "./RequestInput.ts"

/** The form token of a session: derived from its secret, which only the session's own browser has. */
export const csrfTokenOf = (session: string): string =>
  createHash("sha256").update(`tenders-csrf\u0000${session}`).digest("base64url")

export const sameToken = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * A state-changing request from another site: its browser says so (`Sec-Fetch-Site`), or its `Origin` is neither
 * the public URL's host nor the `Host` it was sent to (a proxy may rewrite `Host`; the browser sets both, and
 * another site can set neither).
 */
export const crossSite = (request: HttpServerRequest.HttpServerRequest, publicUrl: URL): boolean => {
  if (request.headers["sec-fetch-site"] === "cross-site") return true
  const origin = request.headers["origin"]
  if (origin === undefined || origin === "null") return origin === "null"
  if (!URL.canParse(origin)) return true
  const host = new URL(origin).host
  return host !== publicUrl.host && host !== request.headers["host"]
}

/** A form posted from another site, or without the session's form token: refused, whatever it asks. */
export const forgedForm = Effect.fnUntraced(function* (
  request: HttpServerRequest.HttpServerRequest,
  publicUrl: URL,
  csrf: string
) {
  return crossSite(request, publicUrl) || !sameToken(field(yield* formOf(request), "csrf"), csrf)
})

/**
 * The content security policy of every page: scripts and styles from the server only, no framing, forms posted to
 * the server, and on to `formAction` too when a page's form must go further (the consent page's, to its client).
 */
export const contentSecurityPolicy = (formAction?: string) =>
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; " +
  `form-action 'self'${formAction === undefined ? "" : ` ${formAction}`}; base-uri 'none'; object-src 'none'`

// Every page: no caching (pages show secrets and per-account data), no framing, no referrer to other sites (a
// sign-in link's token is in the URL of the page it opens; "no-referrer" would also make the browser send
// `Origin: null` on the page's own forms), the policy above.
export const pageHeaders = {
  "cache-control": "no-store",
  "content-security-policy": contentSecurityPolicy(),
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY"
}
