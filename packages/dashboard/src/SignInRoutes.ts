import { completeSignIn, requestSignIn, signInLinkAddress, signInLinkTtl, SignInStore } from "@tenders/core"
import { Duration, Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { DashboardSettings, isSecure } from "./DashboardSettings.ts"
import { errorPage } from "./ErrorPage.ts"
import { rememberLanguage } from "./Language.ts"
import { CurrentPage, readPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { clientAddress, field, formOf } from "./RequestInput.ts"
import { redirect, showPage } from "./Responses.ts"
import { safeNext } from "./SafeNext.ts"
import { crossSite, forgedForm } from "./Security.ts"
import { endSession, startSession } from "./SessionCookie.ts"
import { SignedIn } from "./SignedIn.ts"
import { confirmPage, linkSentPage, signInPage } from "./SignInPages.ts"

const signInForm = Effect.fn("dashboard.signInForm")(function* (request: HttpServerRequest.HttpServerRequest) {
  const settings = yield* DashboardSettings
  const { ctx, chosen, url } = yield* readPage(request)
  const next = safeNext(url.searchParams.get("next"))
  if (ctx.session !== undefined) return redirect(next ?? paths.home)
  return rememberLanguage(showPage(signInPage(ctx, undefined, "", next)), chosen, isSecure(settings))
})

const askForLink = Effect.fn("dashboard.askForLink")(function* (request: HttpServerRequest.HttpServerRequest) {
  const settings = yield* DashboardSettings
  const { ctx } = yield* readPage(request)
  const t = ctx.t
  if (crossSite(request, settings.publicUrl)) return showPage(signInPage(ctx, t.errors.forbidden), 403)
  const form = yield* formOf(request)
  const email = field(form, "email")
  const next = safeNext(field(form, "next"))
  const linkQuery = (token: string) => new URLSearchParams(next === undefined ? { token } : { token, next })
  return yield* requestSignIn({
    email,
    client: clientAddress(request),
    signUp: settings.signUp,
    language: ctx.language,
    linkUrl: (token) => new URL(`${paths.link}?${linkQuery(token)}`, settings.publicUrl).href
  }).pipe(
    Effect.map((address) => showPage(linkSentPage(ctx, address, Duration.toMinutes(signInLinkTtl)))),
    Effect.catchTags({
      SignInThrottled: (refused) =>
        Effect.succeed(
          showPage(signInPage(ctx, t.errors.throttled(Math.ceil(refused.retryAfter / 60)), email, next), 429).pipe(
            HttpServerResponse.setHeader("retry-after", String(refused.retryAfter))
          )
        ),
      InvalidInput: () => Effect.succeed(showPage(signInPage(ctx, t.errors.invalidEmail, email, next), 400))
    })
  )
})

const openLink = Effect.fn("dashboard.openLink")(function* (request: HttpServerRequest.HttpServerRequest) {
  const { ctx, url } = yield* readPage(request)
  const token = url.searchParams.get("token") ?? ""
  return yield* signInLinkAddress(token).pipe(
    Effect.map((email) => showPage(confirmPage(ctx, token, email, safeNext(url.searchParams.get("next"))))),
    Effect.catchTag("Unauthorized", () =>
      Effect.succeed(showPage(errorPage(ctx, ctx.t.errors.linkRefused, paths.signIn), 400))
    )
  )
})

const useLink = Effect.fn("dashboard.useLink")(function* (request: HttpServerRequest.HttpServerRequest) {
  const settings = yield* DashboardSettings
  const { ctx } = yield* readPage(request)
  const t = ctx.t
  if (crossSite(request, settings.publicUrl)) return showPage(errorPage(ctx, t.errors.forbidden, paths.signIn), 403)
  const form = yield* formOf(request)
  const next = safeNext(field(form, "next")) ?? paths.home
  return yield* completeSignIn(field(form, "token"), settings.signUp).pipe(
    Effect.map(({ session }) => startSession(redirect(next), session, isSecure(settings))),
    Effect.catchTags({
      SignUpClosed: () => Effect.succeed(showPage(errorPage(ctx, t.errors.signUpClosed, paths.signIn), 400)),
      Unauthorized: () => Effect.succeed(showPage(errorPage(ctx, t.errors.linkRefused, paths.signIn), 400))
    })
  )
})

// Signed in or not, the browser forgets its session; a session ends only with its own form token.
const signOut = Effect.fn("dashboard.signOut")(function* (request: HttpServerRequest.HttpServerRequest) {
  const settings = yield* DashboardSettings
  const { ctx, token } = yield* readPage(request)
  if (ctx.session !== undefined) {
    if (yield* forgedForm(request, settings.publicUrl, ctx.session.csrf)) {
      return showPage(errorPage(ctx, ctx.t.errors.forbidden, paths.home), 403)
    }
    yield* (yield* SignInStore).endSession(token ?? "")
  }
  return endSession(redirect(paths.signIn), isSecure(settings))
})

// Every session of the account ends, this browser's too: a lost or shared computer is signed out.
const signOutEverywhere = Effect.fn("dashboard.signOutEverywhere")(function* () {
  const { session } = yield* CurrentPage
  yield* (yield* SignInStore).endSessions(session.account.id)
  return endSession(redirect(paths.signIn), isSecure(yield* DashboardSettings))
})

/** E-mail sign-in (the form, the link's page and its button) and signing out, here or everywhere. */
export const SignInRoutes = Layer.mergeAll(
  HttpRouter.addAll([
    HttpRouter.route("GET", paths.signIn, signInForm),
    HttpRouter.route("POST", paths.signIn, askForLink),
    HttpRouter.route("GET", paths.link, openLink),
    HttpRouter.route("POST", paths.link, useLink),
    HttpRouter.route("POST", paths.signOut, signOut)
  ]),
  HttpRouter.add("POST", paths.signOutEverywhere, signOutEverywhere).pipe(Layer.provide(SignedIn))
)
