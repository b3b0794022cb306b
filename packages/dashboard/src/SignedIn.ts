import { SignInStore } from "@tenders/core"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { DashboardSettings, isSecure } from "./DashboardSettings.ts"
import { errorPage } from "./ErrorPage.ts"
import { rememberLanguage } from "./Language.ts"
import { CurrentPage, readPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { redirect, showPage } from "./Responses.ts"
import { signInPath } from "./SafeNext.ts"
import { forgedForm } from "./Security.ts"

/**
 * The guard of the pages for the signed-in: a visitor without a live session is sent to the sign-in form (and back
 * to the page asked for, after), a form posted from another site or without the session's form token is refused;
 * the routes behind it get their page as CurrentPage, and a language chosen on it is kept.
 */
export const SignedIn = HttpRouter.middleware<{ provides: CurrentPage }>()(
  Effect.gen(function* () {
    const settings = yield* DashboardSettings
    const sessions = yield* SignInStore
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { ctx, chosen, url } = yield* readPage(request).pipe(Effect.provideService(SignInStore, sessions))
        if (ctx.session === undefined) return redirect(signInPath(request.method === "GET" ? url : undefined))
        if (request.method === "POST" && (yield* forgedForm(request, settings.publicUrl, ctx.session.csrf))) {
          return showPage(errorPage(ctx, ctx.t.errors.forbidden, paths.home), 403)
        }
        const response = yield* Effect.provideService(httpEffect, CurrentPage, { ...ctx, session: ctx.session })
        return rememberLanguage(response, chosen, isSecure(settings))
      })
  })
).layer
