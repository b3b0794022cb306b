import {
  approveAuthorization,
  checkAuthorization,
  type ClientMetadataDocuments,
  denyAuthorization,
  GrantId,
  isMetadataDocumentId,
  OAuthSettings,
  OAuthStore,
  type SignInStore
} from "@tenders/core"
import { DateTime, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { messages } from "./I18n.ts"
import { appsPage, consentPage, refusedRequestPage } from "./OAuthPages.ts"
import { errorPage, paths } from "./Pages.ts"
import { addRoutes, DashboardSettings, formOf, makeWeb, signInPath } from "./Web.ts"

/** The parameters of an authorization request that the consent form carries back (each once). */
const requestParameters = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource"
] as const

const parametersOf = (params: UrlParams.UrlParams) =>
  Object.fromEntries(
    requestParameters.flatMap((name) => {
      const values = UrlParams.getAll(params, name)
      return values.length === 1 ? [[name, values[0] ?? ""]] : []
    })
  ) as Record<string, string>

/** Why a request is refused before it is read: a parameter given more than once (RFC 6749 §3.1), or nothing. */
const repeatedProblem = (params: UrlParams.UrlParams): string | undefined => {
  const repeated = requestParameters.filter((name) => UrlParams.getAll(params, name).length > 1)
  return repeated.length === 0 ? undefined : `${repeated.join(", ")} given more than once`
}

/** The CSP source a form may be sent on to after the consent: the redirect URI's origin, or its app scheme. */
const formTarget = (redirectUri: string) => {
  const url = new URL(redirectUri)
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol
}

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

    // GET: a person not signed in signs in first and comes back here; then the request is checked (so nothing is
    // fetched for an anonymous visitor) and the person asked. An error for the app is shown with a link back to it,
    // never redirected to by itself: anyone can register a client, so that would make this an open redirector.
    const ask = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { ctx, url } = yield* pageContext(request)
      if (ctx.session === undefined) return redirect(signInPath(url))
      const query = UrlParams.fromInput(url.searchParams)
      const repeated = repeatedProblem(query)
      if (repeated !== undefined) return show(errorPage(ctx, repeated, paths.home), 400)
      const params = parametersOf(query)
      const checked = yield* checkAuthorization(params)
      if (checked._tag === "Invalid") return show(errorPage(ctx, checked.message, paths.home), 400)
      if (checked._tag === "Redirect") {
        const description = new URL(checked.url).searchParams.get("error_description") ?? ""
        return show(refusedRequestPage(ctx, description, checked.url), 400)
      }
      const client = checked.request.client
      return show(
        consentPage(
          ctx,
          {
            clientName: client.clientName,
            redirectUri: checked.request.redirectUri,
            publishedBy: isMetadataDocumentId(client.clientId) ? new URL(client.clientId).host : undefined
          },
          Object.entries(params)
        )
      ).pipe(
        HttpServerResponse.setHeader(
          "content-security-policy",
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; " +
            `form-action 'self' ${formTarget(checked.request.redirectUri)}; base-uri 'none'; object-src 'none'`
        )
      )
    })

    // POST (the consent form, with the session's form token): check again, then allow or deny.
    const decide = signedIn((ctx, request) =>
      Effect.gen(function* () {
        const form = yield* formOf(request)
        const repeated = repeatedProblem(form)
        if (repeated !== undefined) return show(errorPage(ctx, repeated, paths.home), 400)
        const checked = yield* checkAuthorization(parametersOf(form))
        if (checked._tag === "Invalid") return show(errorPage(ctx, checked.message, paths.home), 400)
        if (checked._tag === "Redirect") return redirect(checked.url)
        const allow = Option.getOrElse(UrlParams.getFirst(form, "decision"), () => "") === "allow"
        return redirect(
          allow
            ? yield* approveAuthorization(checked.request, ctx.session.account.id)
            : yield* denyAuthorization(checked.request)
        )
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
