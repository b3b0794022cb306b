import { type Account, sessionAccount, type UiLanguage } from "@tenders/core"
import { Context, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { type Messages, messages } from "./I18n.ts"
import { chosenLanguage, languageOf } from "./Language.ts"
import { paths } from "./Paths.ts"
import { csrfTokenOf } from "./Security.ts"
import { sessionCookie } from "./SessionCookie.ts"

/** What every page knows: its language and its texts, its path, and, once signed in, the account and form token. */
export interface PageContext {
  readonly language: UiLanguage
  /** The texts of the page's language. */
  readonly t: Messages
  readonly path: string
  /** The page to reopen in another language (its path and query, without `lang`). */
  readonly reopen: string
  readonly session?: { readonly account: Account; readonly csrf: string }
}

/** A page's context once signed in. */
export type SignedInContext = PageContext & { readonly session: NonNullable<PageContext["session"]> }

/** The signed-in page a route answers: provided by the SignedIn middleware to the routes behind it. */
export class CurrentPage extends Context.Service<CurrentPage, SignedInContext>()("@tenders/dashboard/CurrentPage") {}

/** A page's context without a session, in `language`. */
export const visitorPage = (language: UiLanguage, path: string, reopen: string): PageContext => ({
  language,
  t: messages[language],
  path,
  reopen
})

/** A request's URL, of which a page reads only the path and query: the overview's when it cannot be read. */
export const pageUrlOf = (request: HttpServerRequest.HttpServerRequest): URL =>
  Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(paths.home, "http://dashboard.invalid"))

/** The section of a dashboard path, which has a page: `/dashboard/settings/webhook-secret` → `/dashboard/settings`. */
const sectionOf = (pathname: string): string => {
  const section = pathname.split("/").slice(0, 3).join("/")
  return section === "/dashboard/oauth" || !section.startsWith("/dashboard") ? paths.home : section
}

/**
 * A request's page: its language and path, and the session's account when the cookie names a live one; with the
 * session cookie, the URL, and the language its `?lang=` chose.
 */
export const readPage = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
  const url = pageUrlOf(request)
  const language = languageOf(request, url)
  const token = request.cookies[sessionCookie]
  const account =
    token === undefined ? Option.none<Account>() : Option.getSuccess(yield* Effect.result(sessionAccount(token)))
  // The language links reopen this page with its query (a link's token, a search, a consent's request); a page
  // shown after a POST has no page to reopen: its section's.
  const visitor = visitorPage(
    language,
    url.pathname,
    request.method === "GET" ? `${url.pathname}${url.search}` : sectionOf(url.pathname)
  )
  const ctx: PageContext = Option.isSome(account)
    ? { ...visitor, session: { account: account.value, csrf: csrfTokenOf(token ?? "") } }
    : visitor
  return { ctx, token, url, chosen: chosenLanguage(url, language) }
})
