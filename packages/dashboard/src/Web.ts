import {
  type Account,
  type AccountId,
  isBodyTooLarge,
  reportDefect,
  sessionAccount,
  type SignUp,
  takeUse,
  type UiLanguage
} from "@tenders/core"
import { Context, Duration, Effect, Option } from "effect"
import type { RateLimiter } from "effect/persistence"
import { type HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { createHash, timingSafeEqual } from "node:crypto"
import type { Html } from "./Html.ts"
import { chooseLanguage, messages } from "./I18n.ts"
import { errorPage, type PageContext, paths } from "./Pages.ts"

/** What the dashboard needs from the server's settings. */
export class DashboardSettings extends Context.Service<
  DashboardSettings,
  {
    /** The address people reach the server at (`TENDERS_PUBLIC_URL`): sign-in links point there. */
    readonly publicUrl: URL
    readonly signUp: SignUp
  }
>()("@tenders/dashboard/DashboardSettings") {}

/** The address a request comes from: the server applied its trusted proxies' `X-Forwarded-For` already. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest) =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

export const sessionCookie = "tenders_session"
export const languageCookie = "tenders_lang"

/** The form token of a session: derived from its secret, which only the session's own browser has. */
export const csrfTokenOf = (session: string): string =>
  createHash("sha256").update(`tenders-csrf\u0000${session}`).digest("base64url")

export const sameToken = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

// Every page: no caching (pages show secrets and per-account data), no framing, no referrer to other sites (a
// sign-in link's token is in the URL of the page it opens; "no-referrer" would also make the browser send
// `Origin: null` on the page's own forms), scripts and styles from the server only.
const pageHeaders = {
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; " +
    "form-action 'self'; base-uri 'none'; object-src 'none'",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY"
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

export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(Effect.orElseSucceed(() => UrlParams.empty))
export const field = (form: UrlParams.UrlParams, name: string): string =>
  Option.getOrElse(UrlParams.getFirst(form, name), () => "")

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

/**
 * Searches and live counts one account may make a minute in the dashboard. They do not count against the API's
 * monthly quota (the dashboard is how people use the product); this keeps a session from being an unmetered API.
 */
export const dashboardReads = { name: "dashboard-reads", limit: 60, window: Duration.minutes(1) } as const

/** The seconds an account must wait before its next dashboard read, or 0 (the read is then counted). */
export const throttleReads = (account: AccountId): Effect.Effect<number, never, RateLimiter.RateLimiter> =>
  takeUse(dashboardReads, account)

/** One route of a dashboard router: method, path, handler. */
export type Route<R> = readonly [
  "GET" | "POST" | "*",
  HttpRouter.PathInput,
  (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
]

/** The page's language: `?lang=`, else the language cookie, else `Accept-Language`. */
const languageOf = (request: HttpServerRequest.HttpServerRequest, url: URL) =>
  chooseLanguage({
    query: url.searchParams.get("lang") ?? undefined,
    cookie: request.cookies[languageCookie],
    acceptLanguage: request.headers["accept-language"]
  })

/**
 * A POST whose form cannot be read: over the server's body limit (413) or not a form (400), answered with a page
 * in the visitor's language instead of reading it as an empty form (whose missing form token would say "expired").
 * The body is read once; the handler gets it again from the request.
 */
const unreadableForm = (request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "POST"
    ? Effect.succeed(undefined)
    : Effect.match(request.urlParamsBody, {
        onSuccess: () => undefined,
        onFailure: (error) => {
          const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(`http://host${paths.home}`))
          const language = languageOf(request, url)
          const t = messages[language].errors
          const tooLarge = isBodyTooLarge(error)
          const ctx: PageContext = { language, path: url.pathname, reopen: paths.home }
          return HttpServerResponse.html(errorPage(ctx, tooLarge ? t.tooLarge : t.unreadable, paths.home).markup).pipe(
            HttpServerResponse.setStatus(tooLarge ? 413 : 400),
            HttpServerResponse.setHeaders(pageHeaders)
          )
        }
      })

/** Adds the routes to the router with the ports they need; a defect answers 500 and is reported. */
export const addRoutes = <R>(
  router: HttpRouter.HttpRouter,
  context: Context.Context<R>,
  routes: ReadonlyArray<Route<R>>
) =>
  Effect.forEach(
    routes,
    ([method, path, handle]) =>
      router.add(method, path, (request) =>
        Effect.flatMap(unreadableForm(request), (refused) =>
          refused === undefined ? handle(request) : Effect.succeed(refused)
        ).pipe(
          Effect.provide(context),
          Effect.catchCause((cause) =>
            Effect.map(reportDefect(cause, "dashboard request failed"), (internal) =>
              HttpServerResponse.text(`Internal error: ${internal.message}`, { status: 500 })
            )
          )
        )
      ),
    { discard: true }
  )

/** A page's context once signed in. */
export type SignedInContext = PageContext & { readonly session: NonNullable<PageContext["session"]> }

/**
 * What every dashboard handler uses, for the server's settings: the page's context (language, path, session), pages
 * and redirects with the dashboard's headers, and the guard of signed-in pages and their forms.
 */
export const makeWeb = (settings: DashboardSettings["Service"]) => {
  const secure = settings.publicUrl.protocol === "https:"
  const cookieOptions = { httpOnly: true, sameSite: "lax" as const, path: "/dashboard", secure }

  /** The page's language and path, and the session's account when the cookie names a live one. */
  const pageContext = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
    const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(paths.home, settings.publicUrl))
    const language = languageOf(request, url)
    const token = request.cookies[sessionCookie]
    const account =
      token === undefined ? Option.none<Account>() : Option.getSuccess(yield* Effect.result(sessionAccount(token)))
    // The language links reopen this page with its query (a link's token, a search, a consent's request); a page
    // shown after a POST has no page to reopen: its section's.
    const reopen = request.method === "GET" ? `${url.pathname}${url.search}` : sectionOf(url.pathname)
    const common = { language, path: url.pathname, reopen }
    const ctx: PageContext = Option.isSome(account)
      ? { ...common, session: { account: account.value, csrf: csrfTokenOf(token ?? "") } }
      : common
    return { ctx, token, url, chosen: url.searchParams.get("lang") === language ? language : undefined }
  })

  const rememberLanguage = (response: HttpServerResponse.HttpServerResponse, language: UiLanguage | undefined) =>
    language === undefined
      ? response
      : HttpServerResponse.setCookieUnsafe(response, languageCookie, language, {
          path: "/dashboard",
          sameSite: "lax",
          maxAge: Duration.days(365),
          secure
        })
  const show = (view: Html, status = 200, language?: UiLanguage) =>
    rememberLanguage(
      HttpServerResponse.html(view.markup).pipe(
        HttpServerResponse.setStatus(status),
        HttpServerResponse.setHeaders(pageHeaders)
      ),
      language
    )
  const redirect = (location: string) => HttpServerResponse.redirect(location, { status: 303, headers: pageHeaders })

  /** A page for the signed-in only: the sign-in form otherwise. */
  const signedIn = <R>(
    build: (
      ctx: SignedInContext,
      request: HttpServerRequest.HttpServerRequest
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ) =>
    Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, chosen, url } = yield* pageContext(request)
      if (ctx.session === undefined) return redirect(signInPath(request.method === "GET" ? url : undefined))
      if (request.method === "POST") {
        const form = yield* formOf(request)
        if (crossSite(request, settings.publicUrl) || !sameToken(field(form, "csrf"), ctx.session.csrf)) {
          return show(errorPage(ctx, messages[ctx.language].errors.forbidden, paths.home), 403)
        }
      }
      return rememberLanguage(yield* build({ ...ctx, session: ctx.session }, request), chosen)
    })

  return { show, redirect, signedIn, pageContext, cookieOptions, secure }
}

/** The section of a dashboard path, which has a page: `/dashboard/settings/webhook-secret` → `/dashboard/settings`. */
const sectionOf = (pathname: string): string => {
  const section = pathname.split("/").slice(0, 3).join("/")
  return section === "/dashboard/oauth" || !section.startsWith("/dashboard") ? paths.home : section
}

/** The sign-in form's path, with the page to open after signing in when there is one. */
export const signInPath = (after?: URL): string => {
  const next = after === undefined ? undefined : safeNext(`${after.pathname}${after.search}`)
  return next === undefined || next === paths.home ? paths.signIn : `${paths.signIn}?next=${encodeURIComponent(next)}`
}
