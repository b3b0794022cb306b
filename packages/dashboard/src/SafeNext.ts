import { paths } from "./Paths.ts"

/**
 * Where to go after signing in: a dashboard path of this server (with its query), or nothing. Anything else (another
 * host, `//host`, a backslash, a path outside `/dashboard`) is dropped, so a link cannot send a person elsewhere.
 */
export const safeNext = (next: string | null | undefined): string | undefined => {
  if (next === null || next === undefined || !next.startsWith("/dashboard") || /[\\\s]/u.test(next)) return undefined
  const base = "http://dashboard.invalid"
  const url = URL.canParse(next, base) ? new URL(next, base) : undefined
  if (url === undefined || url.origin !== base || !/^\/dashboard(?:\/|$)/u.test(url.pathname)) return undefined
  // Not a sign-in page: a `next` of another person's sign-in link would sign the victim in to that account. Checked
  // on the path as the router reads it (decoded, in any case, `//` as `/`, without `;…`), not as written.
  if (routedPath(url.pathname).startsWith(paths.signIn)) return undefined
  return `${url.pathname}${url.search}`
}

/**
 * A path as the router may match it, or more: every `%xx` decoded (an encoded `/` too), lower case, `//` as `/`, `;…`
 * dropped. Reading more into a path than the router does only refuses more.
 */
const routedPath = (pathname: string): string =>
  pathname
    .replace(/%[0-9a-f]{2}/giu, (hex) => String.fromCharCode(Number.parseInt(hex.slice(1), 16)))
    .toLowerCase()
    .replace(/\/{2,}/gu, "/")
    .replace(/;[^/]*/gu, "")

/** The sign-in form's path, with the page to open after signing in when there is one. */
export const signInPath = (after?: URL): string => {
  const next = after === undefined ? undefined : safeNext(`${after.pathname}${after.search}`)
  return next === undefined || next === paths.home ? paths.signIn : `${paths.signIn}?next=${encodeURIComponent(next)}`
}
