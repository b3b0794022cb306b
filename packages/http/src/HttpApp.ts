import { TendersApi } from "@tenders/contract"
import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { AuthorizationLive } from "./AuthorizationLive.ts"
import { ErrorMapping } from "./ErrorMapping.ts"
import { MetaHandlers, SystemHandlers, TendersHandlers, WatchlistsHandlers } from "./Handlers.ts"

/**
 * Every route of the REST interface plus `/docs`, as router layers. Needs the core ports
 * (TenderStore, AccountStore, SourceStatusStore, Rates) from the composition root.
 */
export const HttpApp = Layer.mergeAll(
  HttpApiBuilder.layer(TendersApi).pipe(
    Layer.provide([TendersHandlers, WatchlistsHandlers, MetaHandlers, SystemHandlers]),
    Layer.provide(AuthorizationLive)
  ),
  HttpApiScalar.layer(TendersApi, { path: "/docs" }),
  ErrorMapping
)
