import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { assetUrls, script, styleSheet } from "./Assets.ts"
import { paths } from "./Paths.ts"

// An asset asked for by the address of its content (a page's link) is kept a year; any other address of it (an
// older page's) is checked again each time.
const asset = (url: string, body: string, type: string) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.succeed(
    HttpServerResponse.text(body, {
      contentType: type,
      headers: {
        "cache-control": request.url === url ? "public, max-age=31536000, immutable" : "no-cache",
        "x-content-type-options": "nosniff"
      }
    })
  )

/** The dashboard's style sheet and script. */
export const AssetRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", paths.style, asset(assetUrls.style, styleSheet, "text/css; charset=utf-8")),
  HttpRouter.route("GET", paths.script, asset(assetUrls.script, script, "text/javascript; charset=utf-8"))
])
