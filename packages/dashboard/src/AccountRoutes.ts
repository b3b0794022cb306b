import { AccountStore, ClassificationStore, DeliveryStore, listAlerts, planRules } from "@tenders/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { alertsPage, deliveriesPage, settingsPage } from "./AccountPages.ts"
import { errorPage } from "./ErrorPage.ts"
import { CurrentPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { field, formOf, pathParams, queryOf } from "./RequestInput.ts"
import { redirect, showPage } from "./Responses.ts"
import { SignedIn } from "./SignedIn.ts"

/** How many of its newest deliveries an account sees. */
const deliveriesShown = 50

/** A delivery's id in a path: its number as written, of at most 15 digits (a safe integer). */
const DeliveryIdText = Schema.String.check(Schema.isPattern(/^\d{1,15}$/u))

const alerts = Effect.fn("dashboard.alerts")(function* () {
  const ctx = yield* CurrentPage
  const listed = yield* listAlerts(ctx.session.account.id)
  return showPage(alertsPage(ctx, listed.alerts))
})

const deliveries = Effect.fn("dashboard.deliveries")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const listed = yield* (yield* DeliveryStore).list(deliveriesShown, ctx.session.account.id)
  return showPage(deliveriesPage(ctx, listed, queryOf(request).has("retried")))
})

const retry = Effect.fn("dashboard.retryDelivery")(function* () {
  const ctx = yield* CurrentPage
  const delivery = yield* pathParams(Schema.Struct({ deliveryId: DeliveryIdText }))
  const retried =
    Option.isSome(delivery) &&
    (yield* (yield* DeliveryStore).retry(
      Number(delivery.value.deliveryId),
      yield* DateTime.now,
      ctx.session.account.id
    ))
  return retried
    ? redirect(`${paths.deliveries}?retried=1`)
    : showPage(errorPage(ctx, ctx.t.errors.noDelivery, paths.deliveries), 404)
})

const settings = Effect.fn("dashboard.settings")(function* () {
  const ctx = yield* CurrentPage
  const packs = yield* (yield* ClassificationStore).status
  return showPage(settingsPage(ctx, planRules[ctx.session.account.plan].webhooks, packs))
})

const secret = Effect.fn("dashboard.webhookSecret")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const rotate = field(yield* formOf(request), "action") === "rotate"
  const value = yield* (yield* AccountStore).webhookSecret(ctx.session.account.id, rotate)
  const packs = yield* (yield* ClassificationStore).status
  return showPage(settingsPage(ctx, planRules[ctx.session.account.plan].webhooks, packs, { value, rotated: rotate }))
})

/** The account's alerts, deliveries (and sending a failed one again), and settings (the webhook signing secret). */
export const AccountRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", paths.alerts, alerts),
  HttpRouter.route("GET", paths.deliveries, deliveries),
  HttpRouter.route("POST", paths.retryDelivery.pattern, retry),
  HttpRouter.route("GET", paths.settings, settings),
  HttpRouter.route("POST", paths.webhookSecret, secret)
]).pipe(Layer.provide(SignedIn))
