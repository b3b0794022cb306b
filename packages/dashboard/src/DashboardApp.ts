import {
  AccountStore,
  completeSignIn,
  KeyId,
  KeyKind,
  monthDailyUsage,
  monthUsage,
  requestSignIn,
  sessionTtl,
  signInLinkAddress,
  signInLinkTtl,
  SignInStore
} from "@tenders/core"
import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { accountRoutes } from "./AccountRoutes.ts"
import { assetUrls, script, styleSheet } from "./Assets.ts"
import { messages } from "./I18n.ts"
import { confirmPage, errorPage, keysPage, linkSentPage, overviewPage, paths, signInPage } from "./Pages.ts"
import type { DashboardPorts, Route } from "./Routes.ts"
import { searchRoutes } from "./SearchRoutes.ts"
import { watchlistRoutes } from "./WatchlistRoutes.ts"
import {
  addRoutes,
  clientAddress,
  crossSite,
  DashboardSettings,
  field,
  formOf,
  makeWeb,
  safeNext,
  sameToken,
  sessionCookie,
  throttleReads
} from "./Web.ts"

/**
 * The dashboard at `/dashboard`, as a router layer to serve next to the REST routes: e-mail sign-in, the overview
 * (with the calls per day), search and full tenders, watchlists, alerts, deliveries, keys and the webhook signing
 * secret, in English, Russian and Armenian. Server-rendered pages; every change is a POST with the session's form
 * token, refused from another site. Needs the core ports of `DashboardPorts` and DashboardSettings.
 */
export const DashboardApp = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* DashboardSettings
    const context = yield* Effect.context<DashboardPorts>()
    const web = { ...makeWeb(settings), throttleReads }
    const { show, redirect, signedIn, pageContext, cookieOptions } = web

    const overview = signedIn((ctx) =>
      Effect.gen(function* () {
        const usage = yield* monthUsage(ctx.session.account)
        const daily = yield* monthDailyUsage(ctx.session.account)
        const resetsAt = DateTime.formatIso(usage.resetsAt).slice(0, 10)
        return show(overviewPage(ctx, { used: usage.used, limit: usage.limit, packs: usage.packs, resetsAt }, daily))
      })
    )

    const listKeys = signedIn((ctx) =>
      Effect.map(
        Effect.flatMap(AccountStore, (accounts) => accounts.listKeys(ctx.session.account.id)),
        (keys) => show(keysPage(ctx, keys))
      )
    )

    const createKey = signedIn((ctx, request) =>
      Effect.gen(function* () {
        const accounts = yield* AccountStore
        const kind = Schema.decodeUnknownOption(KeyKind)(field(yield* formOf(request), "kind"))
        if (Option.isNone(kind)) return redirect(paths.keys)
        const created = yield* accounts.createKey(ctx.session.account.id, kind.value)
        return show(
          keysPage(ctx, yield* accounts.listKeys(ctx.session.account.id), { key: created.key, kind: kind.value })
        )
      })
    )

    const revokeKey = signedIn((ctx) =>
      Effect.gen(function* () {
        const keyId = Schema.decodeUnknownOption(KeyId)(/^\/dashboard\/keys\/([^/]+)\/revoke$/u.exec(ctx.path)?.[1])
        const revoked =
          Option.isSome(keyId) && (yield* (yield* AccountStore).revokeKey(keyId.value, ctx.session.account.id))
        return revoked
          ? redirect(paths.keys)
          : show(errorPage(ctx, messages[ctx.language].errors.notFound, paths.keys), 404)
      })
    )

    const signInForm = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, chosen, url } = yield* pageContext(request)
      const next = safeNext(url.searchParams.get("next"))
      if (ctx.session !== undefined) return redirect(next ?? paths.home)
      return show(signInPage(ctx, undefined, "", next), 200, chosen)
    })

    const askForLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      const t = messages[ctx.language]
      if (crossSite(request, settings.publicUrl)) return show(signInPage(ctx, t.errors.forbidden), 403)
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
        Effect.map((address) => show(linkSentPage(ctx, address, Duration.toMinutes(signInLinkTtl)))),
        Effect.catchTags({
          SignInThrottled: (refused) =>
            Effect.succeed(
              show(signInPage(ctx, t.errors.throttled(Math.ceil(refused.retryAfter / 60)), email, next), 429).pipe(
                HttpServerResponse.setHeader("retry-after", String(refused.retryAfter))
              )
            ),
          InvalidInput: () => Effect.succeed(show(signInPage(ctx, t.errors.invalidEmail, email, next), 400))
        })
      )
    })

    const openLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, url } = yield* pageContext(request)
      const token = url.searchParams.get("token") ?? ""
      return yield* signInLinkAddress(token).pipe(
        Effect.map((email) => show(confirmPage(ctx, token, email, safeNext(url.searchParams.get("next"))))),
        Effect.catchTag("Unauthorized", () =>
          Effect.succeed(show(errorPage(ctx, messages[ctx.language].errors.linkRefused, paths.signIn), 400))
        )
      )
    })

    const useLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      const t = messages[ctx.language]
      if (crossSite(request, settings.publicUrl)) return show(errorPage(ctx, t.errors.forbidden, paths.signIn), 403)
      const form = yield* formOf(request)
      const next = safeNext(field(form, "next")) ?? paths.home
      return yield* completeSignIn(field(form, "token"), settings.signUp).pipe(
        Effect.map(({ session }) =>
          HttpServerResponse.setCookieUnsafe(redirect(next), sessionCookie, session, {
            ...cookieOptions,
            maxAge: sessionTtl
          })
        ),
        Effect.catchTags({
          SignUpClosed: () => Effect.succeed(show(errorPage(ctx, t.errors.signUpClosed, paths.signIn), 400)),
          Unauthorized: () => Effect.succeed(show(errorPage(ctx, t.errors.linkRefused, paths.signIn), 400))
        })
      )
    })

    const signOut = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, token } = yield* pageContext(request)
      if (ctx.session !== undefined) {
        const form = yield* formOf(request)
        if (crossSite(request, settings.publicUrl) || !sameToken(field(form, "csrf"), ctx.session.csrf)) {
          return show(errorPage(ctx, messages[ctx.language].errors.forbidden, paths.home), 403)
        }
        yield* (yield* SignInStore).endSession(token ?? "")
      }
      return HttpServerResponse.expireCookieUnsafe(redirect(paths.signIn), sessionCookie, cookieOptions)
    })

    // Every session of the account ends, this browser's too: a lost or shared computer is signed out.
    const signOutEverywhere = signedIn((ctx) =>
      Effect.gen(function* () {
        yield* (yield* SignInStore).endSessions(ctx.session.account.id)
        return HttpServerResponse.expireCookieUnsafe(redirect(paths.signIn), sessionCookie, cookieOptions)
      })
    )

    // A dashboard address no route has: the dashboard's own page, with its headers, not the REST API's JSON.
    const noPage = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      return show(errorPage(ctx, messages[ctx.language].errors.noPage, paths.home), 404)
    })

    // An asset asked for by the address of its content (a page's link) is kept a year; any other address of it
    // (an older page's) is checked again each time.
    const asset = (url: string, body: string, type: string) => (request: HttpServerRequest.HttpServerRequest) =>
      Effect.succeed(
        HttpServerResponse.text(body, {
          contentType: type,
          headers: {
            "cache-control": request.url === url ? "public, max-age=31536000, immutable" : "no-cache",
            "x-content-type-options": "nosniff"
          }
        })
      )

    const routes: ReadonlyArray<Route> = [
      ...searchRoutes(web),
      ...watchlistRoutes(web),
      ...accountRoutes(web),
      ["GET", paths.home, overview],
      ["GET", paths.signIn, signInForm],
      ["POST", paths.signIn, askForLink],
      ["GET", paths.link, openLink],
      ["POST", paths.link, useLink],
      ["POST", paths.signOut, signOut],
      ["POST", paths.signOutEverywhere, signOutEverywhere],
      ["GET", paths.keys, listKeys],
      ["POST", paths.keys, createKey],
      ["POST", "/dashboard/keys/:keyId/revoke", revokeKey],
      ["GET", paths.style, asset(assetUrls.style, styleSheet, "text/css; charset=utf-8")],
      ["GET", paths.script, asset(assetUrls.script, script, "text/javascript; charset=utf-8")],
      ["*", "/dashboard/:page/*", noPage]
    ]
    yield* addRoutes(router, context, routes)
  })
)
