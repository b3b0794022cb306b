import { CurrentCaller, TendersApi } from "@tenders/contract"
import {
  AlertStore,
  createWatchlist,
  getTender,
  listAlerts,
  Rates,
  SearchText,
  SearchResponse,
  searchTenders,
  SourceStatusStore,
  sourceHealth,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"
import { withPorts } from "./HandlerPorts.ts"

/**
 * The JSON of each search answer, made once: the result cache (`SearchCache`) gives the same answer object again
 * until the store changes, so a search answered from it is not encoded again (the contract's schema, as the API's
 * builder encodes any answer). Held weakly: an answer's JSON goes with the cache's entry.
 */
const searchAnswers = new WeakMap<SearchResponse, string>()
const encodeSearchAnswer = Schema.encodeEffect(SearchResponse)
const jsonText = (text: string) => HttpServerResponse.text(text, { contentType: "application/json" })
const searchAnswer = (answer: SearchResponse) => {
  const known = searchAnswers.get(answer)
  if (known !== undefined) return Effect.succeed(jsonText(known))
  return Effect.map(Effect.orDie(encodeSearchAnswer(answer)), (encoded) => {
    const text = JSON.stringify(encoded)
    searchAnswers.set(answer, text)
    return jsonText(text)
  })
}

/** Search and get-tender: thin over the use cases. */
export const TendersHandlers = HttpApiBuilder.group(
  TendersApi,
  "tenders",
  Effect.fn(function* (handlers) {
    const provide = yield* withPorts(TenderStore, Rates, SourceStatusStore, SearchText)
    return handlers
      .handle("search", ({ payload }) =>
        provide(Effect.flatMap(CurrentCaller, (caller) => searchTenders(payload, caller.account.plan))).pipe(
          Effect.flatMap(searchAnswer)
        )
      )
      .handle("get", ({ params }) =>
        provide(Effect.flatMap(CurrentCaller, (caller) => getTender(params.id, caller.account.plan)))
      )
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
        provide(Effect.flatMap(CurrentCaller, (caller) => createWatchlist(payload, caller.account)))
      )
      .handle("alerts", () => provide(Effect.flatMap(CurrentCaller, (caller) => listAlerts(caller.account.id))))
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
