import {
  type AlertsResponse,
  type FullTender,
  type HealthReport,
  Internal,
  InvalidInput,
  LimitReached,
  NotFound,
  PlanRequired,
  QuotaExceeded,
  type SearchRequest,
  type SearchResponse,
  Unauthorized,
  type WatchlistCreated,
  type WatchlistInput
} from "@tenders/core"
import { Config, Context, Effect, Layer, Option, Schema } from "effect"
import { FetchHttpClient, type HttpClient, type HttpClientError } from "effect/http"
import { type CallFailure, makeCalls, type TendersClientOptions } from "./Calls.ts"

/**
 * What any authenticated call can fail with: the contract's errors for 400, 401, 403 (two codes), 429 and 500,
 * `HttpClientError` when no answer came (after retries) or the answer is not one the contract declares, and
 * `SchemaError` when an answer does not match the contract.
 */
export type TendersCallError =
  | InvalidInput
  | Unauthorized
  | PlanRequired
  | LimitReached
  | QuotaExceeded
  | Internal
  | HttpClientError.HttpClientError
  | Schema.SchemaError

/** The Effect client of the Tenders REST interface; see {@link TendersClient.layer}. */
export interface TendersClientService {
  /** `POST /v1/tenders/search`: open tenders, best match first. */
  readonly searchTenders: (request: SearchRequest) => Effect.Effect<SearchResponse, TendersCallError>
  /** `GET /v1/tenders/{id}`: the full card of one tender; `NotFound` for an unknown id. */
  readonly getTender: (id: string) => Effect.Effect<FullTender, TendersCallError | NotFound>
  /** `POST /v1/watchlists`: saves filters as a watchlist. */
  readonly createWatchlist: (input: WatchlistInput) => Effect.Effect<WatchlistCreated, TendersCallError>
  /** `GET /v1/alerts`: open alerts of the caller's watchlists, nearest deadline first. */
  readonly listAlerts: () => Effect.Effect<AlertsResponse, TendersCallError>
  /** `GET /health`: service and source health (needs no key). */
  readonly health: () => Effect.Effect<HealthReport, Internal | HttpClientError.HttpClientError | Schema.SchemaError>
}

const error = <E>(failure: CallFailure<E>): E => failure.error

/** Builds the Effect client over the `HttpClient` in context (retries per `options.retry`). */
export const makeTendersClient = Effect.fnUntraced(function* (options: TendersClientOptions) {
  const calls = yield* makeCalls(options)
  return TendersClient.of({
    searchTenders: Effect.fn("TendersClient.searchTenders")((request: SearchRequest) =>
      Effect.mapError(calls.searchTenders(request), error)
    ),
    getTender: Effect.fn("TendersClient.getTender")((id: string) => Effect.mapError(calls.getTender(id), error)),
    createWatchlist: Effect.fn("TendersClient.createWatchlist")((input: WatchlistInput) =>
      Effect.mapError(calls.createWatchlist(input), error)
    ),
    listAlerts: Effect.fn("TendersClient.listAlerts")(() => Effect.mapError(calls.listAlerts(), error)),
    health: Effect.fn("TendersClient.health")(() => Effect.mapError(calls.health(), error))
  })
})

/** The Tenders Effect client as a service. */
export class TendersClient extends Context.Service<TendersClient, TendersClientService>()(
  "@tenders/client-sdk/TendersClient"
) {
  /** The client over the `HttpClient` you provide (e.g. `FetchHttpClient.layer`, or one with your own middleware). */
  static readonly layerWith = (
    options: TendersClientOptions
  ): Layer.Layer<TendersClient, never, HttpClient.HttpClient> => Layer.effect(TendersClient, makeTendersClient(options))

  /** The client over `fetch` (`FetchHttpClient.layer`). */
  static readonly layer = (options: TendersClientOptions): Layer.Layer<TendersClient> =>
    TendersClient.layerWith(options).pipe(Layer.provide(FetchHttpClient.layer))

  /** The client over `fetch`, configured by `TENDERS_BASE_URL` and `TENDERS_API_KEY` (optional). */
  static readonly layerConfig: Layer.Layer<TendersClient, Config.ConfigError> = Layer.unwrap(
    Effect.gen(function* () {
      const baseUrl = yield* Config.String("TENDERS_BASE_URL")
      const apiKey = yield* Config.option(Config.Redacted("TENDERS_API_KEY"))
      return TendersClient.layer({ baseUrl, apiKey: Option.getOrUndefined(apiKey) })
    })
  )
}
