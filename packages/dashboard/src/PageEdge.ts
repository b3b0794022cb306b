import { isBodyTooLarge, reportDefect } from "@tenders/core"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorPage } from "./ErrorPage.ts"
import { languageOf } from "./Language.ts"
import { pageUrlOf, visitorPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { showPage } from "./Responses.ts"

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
          const url = pageUrlOf(request)
          const ctx = visitorPage(languageOf(request, url), url.pathname, paths.home)
          const tooLarge = isBodyTooLarge(error)
          const message = tooLarge ? ctx.t.errors.tooLarge : ctx.t.errors.unreadable
          return showPage(errorPage(ctx, message, paths.home), tooLarge ? 413 : 400)
        }
      })

/**
 * The edge of every dashboard route, before its guard: a form that cannot be read is answered by a page, and a
 * defect by a 500 (reported with its trace id).
 */
export const PageEdge = HttpRouter.middleware((httpEffect) =>
  Effect.gen(function* () {
    const refused = yield* unreadableForm(yield* HttpServerRequest.HttpServerRequest)
    return refused ?? (yield* httpEffect)
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.map(reportDefect(cause, "dashboard request failed"), (internal) =>
        HttpServerResponse.text(`Internal error: ${internal.message}`, { status: 500 })
      )
    )
  )
).layer
