import { type UiLanguage, uiLanguages, weightedValues } from "@tenders/core"
import { Duration } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"

/** The cookie that keeps the language a person chose on a page. */
export const languageCookie = "tenders_lang"

const isUiLanguage = (code: string | undefined): code is UiLanguage =>
  code !== undefined && (uiLanguages as ReadonlyArray<string>).includes(code)

/**
 * The language to answer in: one chosen on the page (`?lang=`, then the cookie it set), else the first of
 * `Accept-Language` (by its q-values) that the dashboard has, else English.
 */
export const chooseLanguage = (input: {
  readonly query: string | undefined
  readonly cookie: string | undefined
  readonly acceptLanguage: string | undefined
}): UiLanguage => {
  if (isUiLanguage(input.query)) return input.query
  if (isUiLanguage(input.cookie)) return input.cookie
  return (
    weightedValues(input.acceptLanguage)
      .map((tag) => tag.split("-")[0])
      .find(isUiLanguage) ?? "en"
  )
}

/** A request's page language: `?lang=`, else the language cookie, else `Accept-Language`. */
export const languageOf = (request: HttpServerRequest.HttpServerRequest, url: URL): UiLanguage =>
  chooseLanguage({
    query: url.searchParams.get("lang") ?? undefined,
    cookie: request.cookies[languageCookie],
    acceptLanguage: request.headers["accept-language"]
  })

/** The language chosen by a page's `?lang=` link, when this request's URL has one. */
export const chosenLanguage = (url: URL, language: UiLanguage): UiLanguage | undefined =>
  url.searchParams.get("lang") === language ? language : undefined

/** Keeps the chosen language for a year, for every dashboard page (a cookie over https when the server is). */
export const rememberLanguage = (
  response: HttpServerResponse.HttpServerResponse,
  language: UiLanguage | undefined,
  secure: boolean
) =>
  language === undefined
    ? response
    : HttpServerResponse.setCookieUnsafe(response, languageCookie, language, {
        path: "/dashboard",
        sameSite: "lax",
        maxAge: Duration.days(365),
        secure
      })
