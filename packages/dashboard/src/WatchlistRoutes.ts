import {
  createWatchlist,
  Filters,
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
import { Effect, Option, Result, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { filterFieldNames, filtersInput, type FormValues, refusedFields, typedValues } from "./FilterForm.ts"
import { type FormState, formState } from "./FormFields.ts"
import { formatNumber } from "./Format.ts"
import { html } from "./Html.ts"
import { type Messages, messages } from "./I18n.ts"
import { errorPage, paths } from "./Pages.ts"
import type { Route, Web } from "./Routes.ts"
import { watchlistsPage } from "./WatchlistsPage.ts"
import { formOf, type SignedInContext } from "./Web.ts"

const watchlistFieldNames = ["name", ...filterFieldNames, "email", "webhook"]

/** A new watchlist's form: alerts by e-mail unless unticked. */
const emptyForm = formState({ email: "on" })

/** The message of each refused field, in the page's language. */
const problemsOf = (t: Messages, fields: ReadonlySet<string>): ReadonlyMap<string, string> => {
  const texts = new Map(Object.entries(t.filters.problems))
  return new Map([...fields].map((field) => [field, texts.get(field) ?? t.errors.title]))
}

/** The form as the API's watchlist input, or its refused fields (decoded by the contract's schema). */
const readWatchlist = (t: Messages, values: FormValues): Result.Result<WatchlistInput, FormState> => {
  const webhook = (values["webhook"] ?? "").trim()
  const raw = {
    name: (values["name"] ?? "").trim(),
    filters: filtersInput(values),
    channels: { email: values["email"] === "on", ...(webhook.length > 0 ? { webhook } : {}) }
  }
  const decoded = Schema.decodeUnknownResult(WatchlistInput)(raw, { errors: "all" })
  if (Result.isFailure(decoded)) return Result.fail({ values, problems: problemsOf(t, refusedFields(decoded.failure)) })
  if (matchesEverything(decoded.success.filters)) {
    return Result.fail({ values, problems: new Map([["q", t.watchlists.mustNarrow]]) })
  }
  return Result.succeed(decoded.success)
}

/** Why core refused a watchlist, in the page's language; a rule of the API is quoted in its own words. */
const refusalOf = (ctx: SignedInContext, input: WatchlistInput, error: InvalidInput | PlanRequired | LimitReached) => {
  const t = messages[ctx.language]
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

/** The watchlists page, its form (saved through core's `createWatchlist`), the live count, and deletion. */
export const watchlistRoutes = ({ show, redirect, signedIn, throttleReads }: Web): ReadonlyArray<Route> => {
  const list = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const query = Option.match(HttpServerRequest.toURL(request), {
        onNone: () => new URLSearchParams(),
        onSome: (url) => url.searchParams
      })
      const watchlists = yield* listWatchlists(ctx.session.account.id)
      const saved = watchlists.find((w) => w.id === query.get("saved"))
      return show(
        watchlistsPage(ctx, {
          watchlists,
          form: emptyForm,
          ...(saved === undefined ? {} : { saved }),
          deleted: query.has("deleted")
        })
      )
    })
  )

  const create = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const t = messages[ctx.language]
      const values = typedValues(yield* formOf(request), watchlistFieldNames)
      const refused = (form: FormState, status: number, refusal?: ReturnType<typeof refusalOf>) =>
        Effect.map(listWatchlists(ctx.session.account.id), (watchlists) =>
          show(watchlistsPage(ctx, { watchlists, form, ...(refusal === undefined ? {} : { refusal }) }), status)
        )
      const read = readWatchlist(t, values)
      if (Result.isFailure(read)) return yield* refused(read.failure, 400)
      const created = yield* Effect.result(createWatchlist(read.success, ctx.session.account))
      if (Result.isSuccess(created)) return redirect(`${paths.watchlists}?saved=${created.success.watchlistId}`)
      const status = created.failure instanceof InvalidInput ? 400 : 403
      return yield* refused(formState(values), status, refusalOf(ctx, read.success, created.failure))
    })
  )

  // What the form would match now, as it is typed (the page's script asks): the count creation would give.
  const count = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const t = messages[ctx.language]
      // `lang`: a text of core's, in English, on a page in another language (the script marks it so).
      const answer = (body: { readonly text: string; readonly count?: number; readonly lang?: "en" }) =>
        HttpServerResponse.jsonUnsafe(body, { headers: { "cache-control": "no-store" } })
      const values = typedValues(yield* formOf(request), filterFieldNames)
      const decoded = Schema.decodeUnknownResult(Filters)(filtersInput(values), { errors: "all" })
      if (Result.isFailure(decoded)) {
        const [first] = problemsOf(t, refusedFields(decoded.failure)).values()
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
  )

  const remove = signedIn((ctx) =>
    Effect.gen(function* () {
      const id = Schema.decodeUnknownOption(WatchlistId)(
        /^\/dashboard\/watchlists\/([^/]+)\/delete$/u.exec(ctx.path)?.[1]
      )
      const removed = Option.isSome(id) && (yield* (yield* WatchlistStore).remove(ctx.session.account.id, id.value))
      return removed
        ? redirect(`${paths.watchlists}?deleted=1`)
        : show(errorPage(ctx, messages[ctx.language].errors.noWatchlist, paths.watchlists), 404)
    })
  )

  return [
    ["GET", paths.watchlists, list],
    ["POST", paths.watchlists, create],
    ["POST", paths.watchlistCount, count],
    ["POST", "/dashboard/watchlists/:watchlistId/delete", remove]
  ]
}
