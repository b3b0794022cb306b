import { AccountStore, ClassificationStore, DeliveryStore, listAlerts, planRules } from "@tenders/core"
import { DateTime, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { alertsPage, deliveriesPage, settingsPage } from "./AccountPages.ts"
import { messages } from "./I18n.ts"
import { errorPage, paths } from "./Pages.ts"
import type { Route, Web } from "./Routes.ts"
import { field, formOf } from "./Web.ts"

/** How many of its newest deliveries an account sees. */
const deliveriesShown = 50

/** The account's alerts, deliveries (and sending a failed one again), and settings (the webhook signing secret). */
export const accountRoutes = ({ show, redirect, signedIn }: Web): ReadonlyArray<Route> => {
  const alerts = signedIn((ctx) =>
    Effect.map(listAlerts(ctx.session.account.id), (listed) => show(alertsPage(ctx, listed.alerts)))
  )

  const deliveries = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const listed = yield* (yield* DeliveryStore).list(deliveriesShown, ctx.session.account.id)
      const retried = Option.exists(HttpServerRequest.toURL(request), (url) => url.searchParams.has("retried"))
      return show(deliveriesPage(ctx, listed, retried))
    })
  )

  const retry = signedIn((ctx) =>
    Effect.gen(function* () {
      const id = Number(/^\/dashboard\/deliveries\/(\d{1,15})\/retry$/u.exec(ctx.path)?.[1] ?? Number.NaN)
      const retried =
        Number.isSafeInteger(id) &&
        (yield* (yield* DeliveryStore).retry(id, yield* DateTime.now, ctx.session.account.id))
      return retried
        ? redirect(`${paths.deliveries}?retried=1`)
        : show(errorPage(ctx, messages[ctx.language].errors.noDelivery, paths.deliveries), 404)
    })
  )

  const settings = signedIn((ctx) =>
    Effect.gen(function* () {
      const packs = yield* (yield* ClassificationStore).status
      return show(settingsPage(ctx, planRules[ctx.session.account.plan].webhooks, packs))
    })
  )

  const secret = signedIn((ctx, request) =>
    Effect.gen(function* () {
      const rotate = field(yield* formOf(request), "action") === "rotate"
      const value = yield* (yield* AccountStore).webhookSecret(ctx.session.account.id, rotate)
      const packs = yield* (yield* ClassificationStore).status
      return show(settingsPage(ctx, planRules[ctx.session.account.plan].webhooks, packs, { value, rotated: rotate }))
    })
  )

  return [
    ["GET", paths.alerts, alerts],
    ["GET", paths.deliveries, deliveries],
    ["POST", "/dashboard/deliveries/:deliveryId/retry", retry],
    ["GET", paths.settings, settings],
    ["POST", paths.webhookSecret, secret]
  ]
}
