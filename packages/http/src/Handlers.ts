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
 * builder encodes any answer). Kept as its UTF-8 bytes, which a response writes as they are (a text body is measured
 * and encoded again at each response) and which take less room than a string once a title is not Latin-1 (two bytes a
 * character); in an array of their own, not a slice of Node's shared buffer pool. Held weakly: an answer's JSON goes
 * with the cache's entry.
 */
const searchAnswers = new WeakMap<SearchResponse, Uint8Array>()
const encodeSearchAnswer = Schema.encodeEffect(SearchResponse)
const utf8 = new TextEncoder()
const jsonBytes = (bytes: Uint8Array) => HttpServerResponse.uint8Array(bytes, { contentType: "application/json" })
const searchAnswer = (answer: SearchResponse) => {
  const known = searchAnswers.get(answer)
  if (known !== undefined) return Effect.succeed(jsonBytes(known))
  return Effect.map(Effect.orDie(encodeSearchAnswer(answer)), (encoded) => {
    const bytes = utf8.encode(JSON.stringify(encoded))
    searchAnswers.set(answer, bytes)
    return jsonBytes(bytes)
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
