import {
  createWatchlist,
  Filters,
  html,
  InvalidInput,
  type LimitReached,
  listWatchlists,
  matchesEverything,
  type PlanRequired,
  planRules,
  previewMatches,
  usedStructuredFilters,
  WatchlistId,
  WatchlistInput,
  WatchlistStore
} from "@tenders/core"
import { Effect, Layer, Option, Result, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorPage } from "./ErrorPage.ts"
import { filterFieldNames, filtersInput, type FormValues, problemsOf, typedValues } from "./FilterForm.ts"
import { type FormState, formState } from "./FormFields.ts"
import { formatNumber } from "./Format.ts"
import type { Messages } from "./I18n.ts"
import { CurrentPage, type SignedInContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { throttleReads } from "./ReadThrottle.ts"
import { formOf, pathParams, queryOf } from "./RequestInput.ts"
import { redirect, showPage } from "./Responses.ts"
import { SignedIn } from "./SignedIn.ts"
import { watchlistsPage } from "./WatchlistsPage.ts"

const watchlistFieldNames = ["name", ...filterFieldNames, "email", "webhook"]

/** A new watchlist's form: alerts by e-mail unless unticked. */
const emptyForm = formState({ email: "on" })

/** The form as the API's watchlist input, or its refused fields (decoded by the contract's schema). */
const readWatchlist = (t: Messages, values: FormValues): Result.Result<WatchlistInput, FormState> => {
  const webhook = (values["webhook"] ?? "").trim()
  const raw = {
    name: (values["name"] ?? "").trim(),
    filters: filtersInput(values),
    channels: { email: values["email"] === "on", ...(webhook.length > 0 ? { webhook } : {}) }
  }
  const decoded = Schema.decodeUnknownResult(WatchlistInput)(raw, { errors: "all" })
  if (Result.isFailure(decoded)) return Result.fail({ values, problems: problemsOf(t, decoded.failure) })
  if (matchesEverything(decoded.success.filters)) {
    return Result.fail({ values, problems: new Map([["q", t.watchlists.mustNarrow]]) })
  }
  return Result.succeed(decoded.success)
}

/** Why core refused a watchlist, in the page's language; a rule of the API is quoted in its own words. */
const refusalOf = (ctx: SignedInContext, input: WatchlistInput, error: InvalidInput | PlanRequired | LimitReached) => {
  const t = ctx.t
  switch (error._tag) {
    case "InvalidInput":
      return html`<p>${t.watchlists.refused} <span lang="en">${error.message}</span></p>`
    case "PlanRequired":
      return html`<p>
        ${usedStructuredFilters(input.filters).length > 0 ? t.filters.planRequired : t.watchlists.webhookPlan}
      </p>`
    case "LimitReached":
      return html`<p>
        ${t.watchlists.limitReached(formatNumber(ctx.language, planRules[ctx.session.account.plan].watchlists))}
      </p>`
  }
}

const list = Effect.fn("dashboard.watchlists")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const query = queryOf(request)
  const watchlists = yield* listWatchlists(ctx.session.account.id)
  const saved = watchlists.find((w) => w.id === query.get("saved"))
  return showPage(
    watchlistsPage(ctx, {
      watchlists,
      form: emptyForm,
      ...(saved === undefined ? {} : { saved }),
      deleted: query.has("deleted")
    })
  )
})

const create = Effect.fn("dashboard.createWatchlist")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const values = typedValues(yield* formOf(request), watchlistFieldNames)
  const refused = (form: FormState, status: number, refusal?: ReturnType<typeof refusalOf>) =>
    Effect.map(listWatchlists(ctx.session.account.id), (watchlists) =>
      showPage(watchlistsPage(ctx, { watchlists, form, ...(refusal === undefined ? {} : { refusal }) }), status)
    )
  const read = readWatchlist(ctx.t, values)
  if (Result.isFailure(read)) return yield* refused(read.failure, 400)
  const created = yield* Effect.result(createWatchlist(read.success, ctx.session.account))
  if (Result.isSuccess(created)) return redirect(`${paths.watchlists}?saved=${created.success.watchlistId}`)
  const status = created.failure instanceof InvalidInput ? 400 : 403
  return yield* refused(formState(values), status, refusalOf(ctx, read.success, created.failure))
})

// What the form would match now, as it is typed (the page's script asks): the count creation would give.
const count = Effect.fn("dashboard.countMatches")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const t = ctx.t
  // `lang`: a text of core's, in English, on a page in another language (the script marks it so).
  const answer = (body: { readonly text: string; readonly count?: number; readonly lang?: "en" }) =>
    HttpServerResponse.jsonUnsafe(body, { headers: { "cache-control": "no-store" } })
  const values = typedValues(yield* formOf(request), filterFieldNames)
  const decoded = Schema.decodeUnknownResult(Filters)(filtersInput(values), { errors: "all" })
  if (Result.isFailure(decoded)) {
    const [first] = problemsOf(t, decoded.failure).values()
    return answer({ text: first ?? t.errors.title })
  }
  if (matchesEverything(decoded.success)) return answer({ text: t.watchlists.idle })
  const wait = yield* throttleReads(ctx.session.account.id)
  if (wait > 0) return answer({ text: t.errors.tooFast(wait) })
  const matches = yield* Effect.result(previewMatches(decoded.success, ctx.session.account))
  if (Result.isSuccess(matches)) {
    const n = matches.success
    return answer({ text: t.watchlists.count(n, formatNumber(ctx.language, n)), count: n })
  }
  return matches.failure._tag === "PlanRequired"
    ? answer({ text: t.filters.planRequired })
    : answer({ text: matches.failure.message, lang: "en" })
})

const remove = Effect.fn("dashboard.deleteWatchlist")(function* () {
  const ctx = yield* CurrentPage
  const id = yield* pathParams(Schema.Struct({ watchlistId: WatchlistId }))
  const removed =
    Option.isSome(id) && (yield* (yield* WatchlistStore).remove(ctx.session.account.id, id.value.watchlistId))
  return removed
    ? redirect(`${paths.watchlists}?deleted=1`)
    : showPage(errorPage(ctx, ctx.t.errors.noWatchlist, paths.watchlists), 404)
})

/** The watchlists page, its form (saved through core's `createWatchlist`), the live count, and deletion. */
export const WatchlistRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", paths.watchlists, list),
  HttpRouter.route("POST", paths.watchlists, create),
  HttpRouter.route("POST", paths.watchlistCount, count),
  HttpRouter.route("POST", paths.deleteWatchlist.pattern, remove)
]).pipe(Layer.provide(SignedIn))
