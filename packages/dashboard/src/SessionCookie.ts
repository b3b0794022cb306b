import { sessionTtl } from "@tenders/core"
import { HttpServerResponse } from "effect/http"

/** The cookie that holds a browser's session secret. */
export const sessionCookie = "tenders_session"

// Out of the pages' scripts' reach, sent on same-site navigation, for the dashboard only; over https when it is.
const options = (secure: boolean) => ({ httpOnly: true, sameSite: "lax", path: "/dashboard", secure }) as const

/** A response that gives the browser its new session, for as long as a session lives. */
export const startSession = (response: HttpServerResponse.HttpServerResponse, session: string, secure: boolean) =>
  HttpServerResponse.setCookieUnsafe(response, sessionCookie, session, { ...options(secure), maxAge: sessionTtl })

/** A response that makes the browser forget its session. */
export const endSession = (response: HttpServerResponse.HttpServerResponse, secure: boolean) =>
  HttpServerResponse.expireCookieUnsafe(response, sessionCookie, options(secure))
