import {
  AccountStore,
  completeSignIn,
  KeyId,
  KeyKind,
  monthUsage,
  Notifier,
  reportDefect,
  requestSignIn,
  sessionTtl,
  signInLinkAddress,
  signInLinkTtl,
  SignInStore
} from "@tenders/core"
import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { script, styleSheet } from "./Assets.ts"
import { messages } from "./I18n.ts"
import { confirmPage, errorPage, keysPage, linkSentPage, overviewPage, paths, signInPage } from "./Pages.ts"
import { crossSite, DashboardSettings, field, formOf, makeWeb, sameToken, sessionCookie } from "./Web.ts"

/** The core ports the dashboard's pages use. */
type Ports = AccountStore | SignInStore | Notifier

/**
 * The dashboard at `/dashboard`, as a router layer to serve next to the REST routes: e-mail sign-in, the overview
 * and the keys, in English, Russian and Armenian. Server-rendered pages; every change is a POST with the session's
 * form token, refused from another site. Needs AccountStore, SignInStore, Notifier and DashboardSettings.
 */
export const DashboardApp = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* DashboardSettings
    const context = yield* Effect.context<Ports>()
    const { show, redirect, signedIn, pageContext, cookieOptions } = makeWeb(settings)

    const overview = signedIn((ctx) =>
      Effect.map(monthUsage(ctx.session.account), (usage) =>
        show(
          overviewPage(ctx, {
            used: usage.used,
            limit: usage.limit,
            packs: usage.packs,
            resetsAt: DateTime.formatIso(usage.resetsAt).slice(0, 10)
          })
        )
      )
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
      const { ctx, chosen } = yield* pageContext(request)
      if (ctx.session !== undefined) return redirect(paths.home)
      return show(signInPage(ctx), 200, chosen)
    })

    const askForLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      const t = messages[ctx.language]
      if (crossSite(request)) return show(signInPage(ctx, t.errors.forbidden), 403)
      const email = field(yield* formOf(request), "email")
      const asked = yield* requestSignIn({
        email,
        client: Option.getOrElse(request.remoteAddress, () => "unknown"),
        signUp: settings.signUp,
        language: ctx.language,
        linkUrl: (token) => new URL(`${paths.link}?token=${encodeURIComponent(token)}`, settings.publicUrl).href
      }).pipe(Effect.result)
      if (asked._tag === "Success") return show(linkSentPage(ctx, email.trim(), Duration.toMinutes(signInLinkTtl)))
      return asked.failure._tag === "SignInThrottled"
        ? show(signInPage(ctx, t.errors.throttled, email), 429).pipe(
            HttpServerResponse.setHeader("retry-after", String(asked.failure.retryAfter))
          )
        : show(signInPage(ctx, t.errors.invalidEmail, email), 400)
    })

    const openLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      const token = Option.getOrElse(HttpServerRequest.toURL(request), () => settings.publicUrl).searchParams.get(
        "token"
      )
      const email = yield* Effect.result(signInLinkAddress(token ?? ""))
      if (email._tag === "Failure")
        return show(errorPage(ctx, messages[ctx.language].errors.linkRefused, paths.signIn), 400)
      return show(confirmPage(ctx, token ?? "", email.success))
    })

    const useLink = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx } = yield* pageContext(request)
      const t = messages[ctx.language]
      if (crossSite(request)) return show(errorPage(ctx, t.errors.forbidden, paths.signIn), 403)
      const signedIn = yield* Effect.result(completeSignIn(field(yield* formOf(request), "token"), settings.signUp))
      if (signedIn._tag === "Failure") {
        const closed = signedIn.failure.message.startsWith("Sign-up is closed")
        return show(errorPage(ctx, closed ? t.errors.signUpClosed : t.errors.linkRefused, paths.signIn), 400)
      }
      return HttpServerResponse.setCookieUnsafe(redirect(paths.home), sessionCookie, signedIn.success.session, {
        ...cookieOptions,
        maxAge: sessionTtl
      })
    })

    const signOut = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, token } = yield* pageContext(request)
      if (ctx.session !== undefined) {
        const form = yield* formOf(request)
        if (crossSite(request) || !sameToken(field(form, "csrf"), ctx.session.csrf)) {
          return show(errorPage(ctx, messages[ctx.language].errors.forbidden, paths.home), 403)
        }
        yield* (yield* SignInStore).endSession(token ?? "")
      }
      return HttpServerResponse.expireCookieUnsafe(redirect(paths.signIn), sessionCookie, cookieOptions)
    })

    const asset = (body: string, type: string) =>
      Effect.succeed(
        HttpServerResponse.text(body, {
          contentType: type,
          headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
        })
      )

    const routes: ReadonlyArray<
      readonly [
        "GET" | "POST",
        HttpRouter.PathInput,
        (
          request: HttpServerRequest.HttpServerRequest
        ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, Ports>
      ]
    > = [
      ["GET", paths.home, overview],
      ["GET", paths.signIn, signInForm],
      ["POST", paths.signIn, askForLink],
      ["GET", paths.link, openLink],
      ["POST", paths.link, useLink],
      ["POST", paths.signOut, signOut],
      ["GET", paths.keys, listKeys],
      ["POST", paths.keys, createKey],
      ["POST", "/dashboard/keys/:keyId/revoke", revokeKey],
      ["GET", paths.style, () => asset(styleSheet, "text/css; charset=utf-8")],
      ["GET", paths.script, () => asset(script, "text/javascript; charset=utf-8")]
    ]
    for (const [method, path, handle] of routes) {
      yield* router.add(method, path, (request) =>
        handle(request).pipe(
          Effect.provide(context),
          Effect.catchCause((cause) =>
            Effect.map(reportDefect(cause, "dashboard request failed"), (internal) =>
              HttpServerResponse.text(`Internal error: ${internal.message}`, { status: 500 })
            )
          )
        )
      )
    }
  })
)
