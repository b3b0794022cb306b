import {
  approveAuthorization,
  AuthorizationCheck,
  checkAuthorization,
  type ClientMetadataDocuments,
  denyAuthorization,
  GrantId,
  isMetadataDocumentId,
  type OAuthSettings,
  OAuthStore,
  redirectOrigin,
  type SignInStore
} from "@tenders/core"
import { DateTime, Effect, Layer, Option, Result, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import type { DashboardSettings } from "./DashboardSettings.ts"
import { errorPage } from "./ErrorPage.ts"
import { appsPage, consentPage, refusedRequestPage } from "./OAuthPages.ts"
import { CurrentPage, type PageContext, readPage } from "./PageContext.ts"
import { PageEdge } from "./PageEdge.ts"
import { paths } from "./Paths.ts"
import { formOf, pathParams } from "./RequestInput.ts"
import { redirect, showPage } from "./Responses.ts"
import { signInPath } from "./SafeNext.ts"
import { contentSecurityPolicy } from "./Security.ts"
import { withServerServices } from "./ServerServices.ts"
import { SignedIn } from "./SignedIn.ts"

/**
 * The consent page's CSP: the dashboard's, with the form allowed on to where the client returns, a source core's
 * redirect rule built from the redirect URI's checked parts (so it cannot add a directive or another source).
 */
const consentPolicy = (redirectUri: string) => contentSecurityPolicy(Result.getOrUndefined(redirectOrigin(redirectUri)))

/** A request refused on the page: 400, or 429 with `Retry-After` when a limit refused it. */
const refused = (ctx: PageContext, invalid: { readonly message: string; readonly retryAfter: number | undefined }) =>
  invalid.retryAfter === undefined
    ? showPage(errorPage(ctx, invalid.message, paths.home), 400)
    : showPage(errorPage(ctx, invalid.message, paths.home), 429).pipe(
        HttpServerResponse.setHeader("retry-after", String(invalid.retryAfter))
      )

// GET: a person not signed in signs in first and comes back here; then the request is checked (so nothing is
// fetched for an anonymous visitor, and a metadata document is fetched for the account) and the person asked. An
// error for the app is shown with a link back to it, never redirected to by itself: anyone can register a client,
// so that would make this an open redirector.
const ask = Effect.fn("dashboard.askConsent")(function* (request: HttpServerRequest.HttpServerRequest) {
  const { ctx, url } = yield* readPage(request)
  if (ctx.session === undefined) return redirect(signInPath(url))
  const checked = yield* checkAuthorization(UrlParams.fromInput(url.searchParams), ctx.session.account.id)
  return AuthorizationCheck.$match(checked, {
    Invalid: (invalid) => refused(ctx, invalid),
    Redirect: ({ url: backToApp, description }) => showPage(refusedRequestPage(ctx, description, backToApp), 400),
    Valid: ({ request: asked, parameters }) =>
      showPage(
        consentPage(
          ctx,
          {
            clientName: asked.client.clientName,
            redirectUri: asked.redirectUri,
            publishedBy: isMetadataDocumentId(asked.client.clientId) ? new URL(asked.client.clientId).host : undefined
          },
          Object.entries(parameters)
        )
      ).pipe(HttpServerResponse.setHeader("content-security-policy", consentPolicy(asked.redirectUri)))
  })
})

// POST (the consent form, with the session's form token): check again, then allow or deny.
const decide = Effect.fn("dashboard.decideConsent")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
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

const apps = Effect.fn("dashboard.apps")(function* () {
  const ctx = yield* CurrentPage
  return showPage(appsPage(ctx, yield* (yield* OAuthStore).grants(ctx.session.account.id)))
})

const revoke = Effect.fn("dashboard.revokeApp")(function* () {
  const ctx = yield* CurrentPage
  const grant = yield* pathParams(Schema.Struct({ grantId: GrantId }))
  const revoked =
    Option.isSome(grant) &&
    (yield* (yield* OAuthStore).revokeGrant(ctx.session.account.id, grant.value.grantId, yield* DateTime.now))
  return revoked ? redirect(paths.apps) : showPage(errorPage(ctx, ctx.t.errors.notFound, paths.apps), 404)
})

type Ports = OAuthStore | OAuthSettings | ClientMetadataDocuments | SignInStore

/**
 * The authorization endpoint's page (OAuth 2.1 for `/mcp`): a signed-in person sees which app asks and where it
 * returns, and allows or denies; and the connected apps, each revocable. Needs DashboardSettings, OAuthSettings,
 * OAuthStore, ClientMetadataDocuments and SignInStore.
 */
export const OAuthConsentApp = Layer.mergeAll(
  HttpRouter.add("GET", paths.authorize, ask),
  HttpRouter.addAll([
    HttpRouter.route("POST", paths.authorize, decide),
    HttpRouter.route("GET", paths.apps, apps),
    HttpRouter.route("POST", paths.revokeApp.pattern, revoke)
  ]).pipe(Layer.provide(SignedIn))
).pipe(Layer.provide(PageEdge), withServerServices<Ports | DashboardSettings>())
