import { CurrentCaller, TendersApi } from "@tenders/contract"
import {
  AlertStore,
  createWatchlist,
  getTender,
  listAlerts,
  WebhookAllowHosts,
  Rates,
  searchTenders,
  SourceStatusStore,
  sourceHealth,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"

/** The ports the handlers use, captured when the routes are built. */
const ports = Effect.context<TenderStore | Rates | SourceStatusStore>()

/** Search and get-tender: thin over the use cases. */
export const TendersHandlers = HttpApiBuilder.group(
  TendersApi,
  "tenders",
  Effect.fn(function* (handlers) {
    const context = yield* ports
    return handlers
      .handle("search", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => searchTenders(payload, caller.account.plan)).pipe(
          Effect.provideContext(context)
        )
      )
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentCaller, (caller) => getTender(params.id, caller.account.plan)).pipe(
          Effect.provideContext(context)
        )
      )
  })
)

/** Watchlist creation and the caller's open alerts. */
export const WatchlistsHandlers = HttpApiBuilder.group(
  TendersApi,
  "watchlists",
  Effect.fn(function* (handlers) {
    const context = yield* Effect.context<TenderStore | Rates | WatchlistStore | AlertStore>()
    const allowHosts = yield* WebhookAllowHosts
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => createWatchlist(payload, caller.account)).pipe(
          Effect.provideContext(context),
          Effect.provideService(WebhookAllowHosts, allowHosts)
        )
      )
      .handle("alerts", () =>
        Effect.flatMap(CurrentCaller, (caller) => listAlerts(caller.account.id)).pipe(Effect.provideContext(context))
      )
  })
)

/** The OpenAPI document, generated from the contract. */
export const MetaHandlers = HttpApiBuilder.group(TendersApi, "meta", (handlers) =>
  handlers.handle("openapi", () => Effect.succeed(HttpServerResponse.jsonUnsafe(openApiDocument())))
)

/** The health probe. */
export const SystemHandlers = HttpApiBuilder.group(
  TendersApi,
  "system",
  Effect.fn(function* (handlers) {
    const context = yield* ports
    return handlers.handle("health", () => sourceHealth.pipe(Effect.provideContext(context)))
  })
)

/** The OpenAPI 3.1 document of the REST interface. */
export const openApiDocument = (): Record<string, unknown> => ({ ...OpenApi.fromApi(TendersApi) })
