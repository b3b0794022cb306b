import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { errorPage } from "./ErrorPage.ts"
import { readPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { showPage } from "./Responses.ts"

// A dashboard address no route has: the dashboard's own page, with its headers, not the REST API's JSON.
const noPage = Effect.fn("dashboard.noPage")(function* (request: HttpServerRequest.HttpServerRequest) {
  const { ctx } = yield* readPage(request)
  return showPage(errorPage(ctx, ctx.t.errors.noPage, paths.home), 404)
})

/** The answer at every dashboard address without a page, whatever its method. */
export const NoPage = HttpRouter.add("*", paths.elsewhere, noPage)
