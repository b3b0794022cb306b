import { TendersApi } from "@tenders/contract"
import { Effect, identity, Layer, Scope } from "effect"
import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { IpNetwork } from "effect/net"
import { AuthorizationLive } from "./AuthorizationLive.ts"
import { ErrorMapping } from "./ErrorMapping.ts"
import { MetaHandlers, SystemHandlers, TendersHandlers, WatchlistsHandlers } from "./Handlers.ts"

/**
 * `/docs`, Scalar's reference of the API, built by its first request: Scalar's script (3 MB of JavaScript, which the
 * route keeps in the page it serves) then stays, about 12 MB of the server's memory that a server nobody reads the
 * page of does not hold (decisions.md, "what a request allocates"); its module (DocsPage.ts) is imported then too.
 */
const docsOnFirstRequest = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const scope = yield* Scope.Scope
    const page = yield* Effect.cached(
      Effect.promise(() => import("./DocsPage.ts")).pipe(
        Effect.flatMap(({ docsHandler }) => docsHandler),
        Scope.provide(scope),
        // A router of its own (a new memo map: the server's would give back the server's router, which has the route).
        Effect.provideService(Layer.CurrentMemoMap, Layer.makeMemoMapUnsafe())
      )
    )
    yield* router.add("GET", "/docs", Effect.flatten(page))
  })
)

/**
 * Every route of the REST interface plus `/docs`, as router layers. Needs the core ports
 * (TenderStore, AccountStore, SourceStatusStore, Rates, WatchlistStore, AlertStore) from the composition root.
 */
export const HttpApp = Layer.mergeAll(
  HttpApiBuilder.layer(TendersApi).pipe(
    Layer.provide([TendersHandlers, WatchlistsHandlers, MetaHandlers, SystemHandlers]),
    Layer.provide(AuthorizationLive)
  ),
  docsOnFirstRequest,
  ErrorMapping
)

/**
 * The router settings to serve `HttpApp` with (`HttpRouter.serve(app, { routerConfig })`): the router's default
 * 100-character limit on a path parameter would answer "no route" for a valid tender id (up to 208 characters);
 * with this one, ids up to 1 KiB reach the contract, which decodes them (400 for what is not a tender id).
 */
export const routerConfig = { maxParamLength: 1024 } as const

/**
 * The middleware to serve every route with (`HttpRouter.serve(app, { middleware })`): a request that came through one
 * of the trusted proxies (`TENDERS_TRUSTED_PROXIES`, core `trustedProxiesConfig`) gets its client's address from
 * `X-Forwarded-For` (Effect's `xForwardedHeaders`), so that every route's limits per client see the client, not the
 * proxy. With no trusted proxy the header is ignored, and the request passes through untouched: Effect's middleware
 * would still parse each request's peer address and give its fiber a new context, about 1 % of a cached search's CPU.
 */
export const clientAddressMiddleware = (trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>) =>
  trustedProxies.length === 0 ? identity : HttpMiddleware.xForwardedHeaders({ trustedProxies })
