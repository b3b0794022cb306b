import { type UiLanguage, uiLanguages } from "@tenders/core"
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
  const ranked = (input.acceptLanguage ?? "")
    .split(",")
    .map((entry, i) => {
      const [tag = "", ...params] = entry.trim().split(";")
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1"
      )
      return { code: tag.trim().toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((entry) => entry.q > 0)
    .toSorted((a, b) => b.q - a.q || a.i - b.i)
  return ranked.map((entry) => entry.code).find(isUiLanguage) ?? "en"
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
