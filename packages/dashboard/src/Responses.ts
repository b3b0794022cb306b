import { type Html } from "@tenders/core"
import { HttpServerResponse } from "effect/http"
import { pageHeaders } from "./Security.ts"

/** A page with the dashboard's headers. */
export const showPage = (view: Html, status = 200) =>
  HttpServerResponse.html(view.markup).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders(pageHeaders)
  )

/** "See other": the page to open after a form, or instead of the one asked for. */
export const redirect = (location: string) =>
  HttpServerResponse.redirect(location, { status: 303, headers: pageHeaders })
