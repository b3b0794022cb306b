import {
  approveAuthorization,
  AuthorizationCheck,
  checkAuthorization,
  type ClientMetadataDocuments,
  denyAuthorization,
  GrantId,
  isMetadataDocumentId,
  OAuthSettings,
  OAuthStore,
  redirectOrigin,
  type SignInStore
} from "@tenders/core"
import { DateTime, Effect, Option, Result, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { messages } from "./I18n.ts"
import { appsPage, consentPage, refusedRequestPage } from "./OAuthPages.ts"
import { errorPage, type PageContext, paths } from "./Pages.ts"
import { addRoutes, DashboardSettings, formOf, makeWeb, signInPath } from "./Web.ts"

/**
 * The consent page's CSP: the dashboard's, with the form allowed on to where the client returns, a source core's
 * redirect rule built from the redirect URI's checked parts (so it cannot add a directive or another source).
 */
const consentPolicy = (redirectUri: string) =>
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; " +
  `form-action 'self'${Result.match(redirectOrigin(redirectUri), { onFailure: () => "", onSuccess: (o) => ` ${o}` })}; ` +
  "base-uri 'none'; object-src 'none'"

type Ports = OAuthStore | OAuthSettings | ClientMetadataDocuments | SignInStore

/**
 * The authorization endpoint's page (OAuth 2.1 for `/mcp`): a signed-in person sees which app asks and where it
 * returns, and allows or denies; and the connected apps, each revocable. Needs DashboardSettings, OAuthSettings,
 * OAuthStore, ClientMetadataDocuments and SignInStore.
 */
export const OAuthConsentApp = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* DashboardSettings
    const context = yield* Effect.context<Ports>()
    const { show, redirect, signedIn, pageContext } = makeWeb(settings)

    /** A request refused on the page: 400, or 429 with `Retry-After` when a limit refused it. */
    const refused = (
      ctx: PageContext,
      invalid: { readonly message: string; readonly retryAfter: number | undefined }
    ) =>
      invalid.retryAfter === undefined
        ? show(errorPage(ctx, invalid.message, paths.home), 400)
        : show(errorPage(ctx, invalid.message, paths.home), 429).pipe(
            HttpServerResponse.setHeader("retry-after", String(invalid.retryAfter))
          )

    // GET: a person not signed in signs in first and comes back here; then the request is checked (so nothing is
    // fetched for an anonymous visitor, and a metadata document is fetched for the account) and the person asked. An
    // error for the app is shown with a link back to it, never redirected to by itself: anyone can register a client,
    // so that would make this an open redirector.
    const ask = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, url } = yield* pageContext(request)
      if (ctx.session === undefined) return redirect(signInPath(url))
      const checked = yield* checkAuthorization(UrlParams.fromInput(url.searchParams), ctx.session.account.id)
      return AuthorizationCheck.$match(checked, {
        Invalid: (invalid) => refused(ctx, invalid),
        Redirect: ({ url: backToApp, description }) => show(refusedRequestPage(ctx, description, backToApp), 400),
        Valid: ({ request: asked, parameters }) =>
          show(
            consentPage(
              ctx,
              {
                clientName: asked.client.clientName,
                redirectUri: asked.redirectUri,
                publishedBy: isMetadataDocumentId(asked.client.clientId)
                  ? new URL(asked.client.clientId).host
                  : undefined
              },
              Object.entries(parameters)
            )
          ).pipe(HttpServerResponse.setHeader("content-security-policy", consentPolicy(asked.redirectUri)))
      })
    })

    // POST (the consent form, with the session's form token): check again, then allow or deny.
    const decide = signedIn((ctx, request) =>
      Effect.gen(function* () {
        const form = yield* formOf(request)
        const checked = yield* checkAuthorization(form, ctx.session.account.id)
        const allow = Option.getOrElse(UrlParams.getFirst(form, "decision"), () => "") === "allow"
        return yield* AuthorizationCheck.$match(checked, {
          Invalid: (invalid) => Effect.succeed(refused(ctx, invalid)),
          Redirect: ({ url }) => Effect.succeed(redirect(url)),
          Valid: ({ request: asked }) =>
            Effect.map(allow ? approveAuthorization(asked, ctx.session.account.id) : denyAuthorization(asked), redirect)
        })
      })
    )

    const apps = signedIn((ctx) =>
      Effect.map(
        Effect.flatMap(OAuthStore, (store) => store.grants(ctx.session.account.id)),
        (grants) => show(appsPage(ctx, grants))
      )
    )

    const revoke = signedIn((ctx) =>
      Effect.gen(function* () {
        const id = Schema.decodeUnknownOption(GrantId)(/^\/dashboard\/apps\/([^/]+)\/revoke$/u.exec(ctx.path)?.[1])
        const revoked =
          Option.isSome(id) &&
          (yield* (yield* OAuthStore).revokeGrant(ctx.session.account.id, id.value, yield* DateTime.now))
        return revoked
          ? redirect(paths.apps)
          : show(errorPage(ctx, messages[ctx.language].errors.notFound, paths.apps), 404)
      })
    )

    yield* addRoutes<Ports>(router, context, [
      ["GET", paths.authorize, ask],
      ["POST", paths.authorize, decide],
      ["GET", paths.apps, apps],
      ["POST", "/dashboard/apps/:grantId/revoke", revoke]
    ])
  })
)
