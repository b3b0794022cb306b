import { currentCaller, TendersApi } from "@tenders/contract"
import {
  AlertStore,
  createWatchlist,
  getTender,
  listAlerts,
  Rates,
  SearchText,
  searchTendersExplained,
  SourceStatusStore,
  sourceHealth,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"
import { searchAnswerResponse } from "./AnswerCompression.ts"
import { withPorts } from "./HandlerPorts.ts"

/** Search and get-tender: thin over the use cases. */
export const TendersHandlers = HttpApiBuilder.group(
  TendersApi,
  "tenders",
  Effect.fn(function* (handlers) {
    const provide = yield* withPorts(TenderStore, Rates, SourceStatusStore, SearchText)
    // A get-tender's tender is read while its call is authorized (the endpoint `ReadsBesideAuthorization`).
    const planOfCaller = Effect.map(currentCaller, (caller) => caller.account.plan)
    return handlers
      .handle("search", ({ payload, request }) =>
        provide(Effect.flatMap(currentCaller, (caller) => searchTendersExplained(payload, caller.account.plan))).pipe(
          Effect.map((answer) => searchAnswerResponse(answer, request.headers["accept-encoding"]))
        )
      )
      .handle("get", ({ params }) => provide(getTender(params.id, planOfCaller)))
  })
)

/** Watchlist creation and the caller's open alerts. */
export const WatchlistsHandlers = HttpApiBuilder.group(
  TendersApi,
  "watchlists",
  Effect.fn(function* (handlers) {
    const provide = yield* withPorts(TenderStore, Rates, WatchlistStore, AlertStore, SearchText)
    return handlers
      .handle("create", ({ payload }) =>
        provide(Effect.flatMap(currentCaller, (caller) => createWatchlist(payload, caller.account)))
      )
      .handle("alerts", () => provide(Effect.flatMap(currentCaller, (caller) => listAlerts(caller.account.id))))
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
    const provide = yield* withPorts(TenderStore, Rates, SourceStatusStore, SearchText)
    return handlers.handle("health", () => provide(sourceHealth))
  })
)

/** The OpenAPI 3.1 document of the REST interface. */
export const openApiDocument = (): Record<string, unknown> => ({ ...OpenApi.fromApi(TendersApi) })
