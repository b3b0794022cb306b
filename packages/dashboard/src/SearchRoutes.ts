import { getTender, html, SearchRequest, searchResponseOf, searchTendersExplained, TenderId } from "@tenders/core"
import { Effect, Layer, Option, Result, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { errorPage } from "./ErrorPage.ts"
import { filterFieldNames, filtersInput, problemsOf, typedValues } from "./FilterForm.ts"
import { formState } from "./FormFields.ts"
import { CurrentPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { throttleReads } from "./ReadThrottle.ts"
import { pathParams, queryOf } from "./RequestInput.ts"
import { showPage } from "./Responses.ts"
import { searchPage, tenderPage } from "./SearchPages.ts"
import { SignedIn } from "./SignedIn.ts"

/** Results a dashboard search shows: the API's largest page. */
const resultsShown = 20

const search = Effect.fn("dashboard.search")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const t = ctx.t
  const query = queryOf(request)
  const values = typedValues(UrlParams.fromInput(query), filterFieldNames)
  if (!query.has("q")) return showPage(searchPage(ctx, formState(values)))
  const decoded = Schema.decodeUnknownResult(SearchRequest)(
    { ...filtersInput(values, true), limit: resultsShown },
    { errors: "all" }
  )
  if (Result.isFailure(decoded)) {
    return showPage(searchPage(ctx, { values, problems: problemsOf(t, decoded.failure) }), 400)
  }
  const wait = yield* throttleReads(ctx.session.account.id)
  if (wait > 0) {
    const tooFast = html`<p>${t.errors.tooFast(wait)}</p>`
    return showPage(searchPage(ctx, formState(values), { _tag: "Refused", message: tooFast }), 429).pipe(
      HttpServerResponse.setHeader("retry-after", String(wait))
    )
  }
  const found = yield* Effect.result(searchTendersExplained(decoded.success, ctx.session.account.plan))
  return Result.isSuccess(found)
    ? showPage(
        searchPage(ctx, formState(values), {
          _tag: "Results",
          response: searchResponseOf(found.success),
          notes: found.success.notes
        })
      )
    : showPage(
        searchPage(ctx, formState(values), { _tag: "Refused", message: html`<p>${t.filters.planRequired}</p>` }),
        403
      )
})

const tender = Effect.fn("dashboard.tender")(function* () {
  const ctx = yield* CurrentPage
  const id = yield* pathParams(Schema.Struct({ tenderId: TenderId }))
  const found = Option.isSome(id)
    ? yield* Effect.result(getTender(id.value.tenderId, Effect.succeed(ctx.session.account.plan)))
    : undefined
  return found !== undefined && Result.isSuccess(found)
    ? showPage(tenderPage(ctx, found.success))
    : showPage(errorPage(ctx, ctx.t.errors.noTender, paths.search), 404)
})

/**
 * The search for the signed-in person, through core's `searchTendersExplained` and `getTender` with the account's
 * plan (the same rules and cards as the API). Not counted against the API quota (docs/decisions.md).
 */
export const SearchRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", paths.search, search),
  HttpRouter.route("GET", paths.tender.pattern, tender)
]).pipe(Layer.provide(SignedIn))
