import { getTender, SearchRequest, searchTendersExplained, TenderId } from "@tenders/core"
import { Effect, Option, Result, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { filterFieldNames, filtersInput, refusedFields, typedValues } from "./FilterForm.ts"
import { formState } from "./FormFields.ts"
import { html } from "./Html.ts"
import { messages } from "./I18n.ts"
import { errorPage, paths } from "./Pages.ts"
import type { Route, Web } from "./Routes.ts"
import { searchPage, tenderPage } from "./SearchPages.ts"

/** Results a dashboard search shows: the API's largest page. */
const resultsShown = 20

/**
 * The search for the signed-in person, through core's `searchTendersExplained` and `getTender` with the account's plan (the
 * same rules and cards as the API). Not counted against the API quota (docs/decisions.md).
 */
export const searchRoutes = ({ show, signedIn, throttleReads }: Web): ReadonlyArray<Route> => {
  const search = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const t = messages[ctx.language]
      const query = Option.match(HttpServerRequest.toURL(request), {
        onNone: () => new URLSearchParams(),
        onSome: (url) => url.searchParams
      })
      const values = typedValues(UrlParams.fromInput(query), filterFieldNames)
      if (!query.has("q")) return show(searchPage(ctx, formState(values)))
      const decoded = Schema.decodeUnknownResult(SearchRequest)(
        { ...filtersInput(values, true), limit: resultsShown },
        { errors: "all" }
      )
      if (Result.isFailure(decoded)) {
        const texts = new Map(Object.entries(t.filters.problems))
        const problems = new Map(
          [...refusedFields(decoded.failure)].map((name) => [name, texts.get(name) ?? t.errors.title])
        )
        return show(searchPage(ctx, { values, problems }), 400)
      }
      const wait = yield* throttleReads(ctx.session.account.id)
      if (wait > 0) {
        const tooFast = html`<p>${t.errors.tooFast(wait)}</p>`
        return show(searchPage(ctx, formState(values), { _tag: "Refused", message: tooFast }), 429).pipe(
          HttpServerResponse.setHeader("retry-after", String(wait))
        )
      }
      const found = yield* Effect.result(searchTendersExplained(decoded.success, ctx.session.account.plan))
      return Result.isSuccess(found)
        ? show(searchPage(ctx, formState(values), { _tag: "Results", ...found.success }))
        : show(
            searchPage(ctx, formState(values), { _tag: "Refused", message: html`<p>${t.filters.planRequired}</p>` }),
            403
          )
    })
  )

  const tender = signedIn((ctx) =>
    Effect.gen(function* () {
      // A tender id has only URL-safe characters: the path holds it as it is.
      const id = Schema.decodeUnknownOption(TenderId)(/^\/dashboard\/tenders\/([^/]+)$/u.exec(ctx.path)?.[1])
      const found = Option.isSome(id) ? yield* Effect.result(getTender(id.value, ctx.session.account.plan)) : undefined
      return found !== undefined && Result.isSuccess(found)
        ? show(tenderPage(ctx, found.success))
        : show(errorPage(ctx, messages[ctx.language].errors.noTender, paths.search), 404)
    })
  )

  return [
    ["GET", paths.search, search],
    ["GET", "/dashboard/tenders/:tenderId", tender]
  ]
}
