import { TendersApi } from "@tenders/contract"
import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { AuthorizationLive } from "./AuthorizationLive.ts"
import { ErrorMapping } from "./ErrorMapping.ts"
import { MetaHandlers, SystemHandlers, TendersHandlers, WatchlistsHandlers } from "./Handlers.ts"

/**
 * Every route of the REST interface plus `/docs`, as router layers. Needs the core ports
 * (TenderStore, AccountStore, SourceStatusStore, Rates, WatchlistStore, AlertStore) from the composition root.
 */
export const HttpApp = Layer.mergeAll(
  HttpApiBuilder.layer(TendersApi).pipe(
    Layer.provide([TendersHandlers, WatchlistsHandlers, MetaHandlers, SystemHandlers]),
    Layer.provide(AuthorizationLive)
  ),
  HttpApiScalar.layer(TendersApi, { path: "/docs" }),
  ErrorMapping
)

/**
 * The router settings to serve `HttpApp` with (`HttpRouter.serve(app, { routerConfig })`): the router's default
 * 100-character limit on a path parameter would answer "no route" for a valid tender id (up to 208 characters);
 * with this one, ids up to 1 KiB reach the contract, which decodes them (400 for what is not a tender id).
 */
export const routerConfig = { maxParamLength: 1024 } as const
