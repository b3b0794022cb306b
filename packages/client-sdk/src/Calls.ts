import { Authorization, issueMessage, TendersApi } from "@tenders/contract"
import { InvalidInput, SearchRequest, TenderId, WatchlistInput } from "@tenders/core"
import { Effect, type Redacted, Schema } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { type RetryOptions, withRetries } from "./Retry.ts"

/** Where and as whom a client calls the Tenders REST interface. */
export interface TendersClientOptions {
  /** The service's base address, e.g. `https://tenders.example.com` (paths start with `/v1`). */
  readonly baseUrl: string | URL
  /** A REST key (`sk_live_...`); only `health` works without one. */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /** Retry policy; see {@link RetryOptions}. */
  readonly retry?: RetryOptions | undefined
}

/** A failed call with the final response, when one arrived (internal: both clients map it their way). */
export interface CallFailure<E> {
  readonly error: E
  readonly response: HttpClientResponse.HttpClientResponse | undefined
}

const failure = <E>(error: E, response: HttpClientResponse.HttpClientResponse | undefined): CallFailure<E> => ({
  error,
  response
})

// The server refuses unknown properties too; checking first keeps a typo from costing a call.
const strict = { onExcessProperty: "error", errors: "all" } as const

const validate = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema, strict)
  return (input: unknown) =>
    decode(input).pipe(
      Effect.mapError((error) => failure(new InvalidInput({ message: issueMessage(error) }), undefined))
    )
}

const validateSearch = validate(SearchRequest)
const validateWatchlist = validate(WatchlistInput)

const validateId = validate(TenderId)

const decoders = {
  search: HttpApiClient.decodeResponse(TendersApi, { group: "tenders", endpoint: "search" }),
  get: HttpApiClient.decodeResponse(TendersApi, { group: "tenders", endpoint: "get" }),
  create: HttpApiClient.decodeResponse(TendersApi, { group: "watchlists", endpoint: "create" }),
  alerts: HttpApiClient.decodeResponse(TendersApi, { group: "watchlists", endpoint: "alerts" }),
  health: HttpApiClient.decodeResponse(TendersApi, { group: "system", endpoint: "health" })
}

const run = <A, E, E2>(
  send: Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError | E2>,
  decode: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, E>
) =>
  send.pipe(
    Effect.mapError((error) => failure(error, undefined)),
    Effect.flatMap((response) => decode(response).pipe(Effect.mapError((error) => failure(error, response))))
  )

/**
 * The five operations over the contract, failing with the decoded error and the final response.
 * The bearer key is added by the client side of the contract's `Authorization` middleware.
 */
export const makeCalls = Effect.fnUntraced(function* (options: TendersClientOptions) {
  const httpClient = withRetries(options.retry)(yield* HttpClient.HttpClient)
  const apiKey = options.apiKey
  const authorization = HttpApiMiddleware.layerClient(Authorization, ({ next, request }) =>
    next(apiKey === undefined ? request : HttpClientRequest.bearerToken(request, apiKey))
  )
  const client = yield* HttpApiClient.makeWith(TendersApi, { httpClient, baseUrl: options.baseUrl }).pipe(
    Effect.provide(authorization)
  )
  return {
    searchTenders: (request: SearchRequest) =>
      Effect.flatMap(validateSearch(request), (payload) =>
        run(client.tenders.search({ payload, responseMode: "response-only" }), decoders.search)
      ),
    getTender: (id: string) =>
      Effect.flatMap(validateId(id), (valid) =>
        run(client.tenders.get({ params: { id: valid }, responseMode: "response-only" }), decoders.get)
      ),
    createWatchlist: (input: WatchlistInput) =>
      Effect.flatMap(validateWatchlist(input), (payload) =>
        run(client.watchlists.create({ payload, responseMode: "response-only" }), decoders.create)
      ),
    listAlerts: () => run(client.watchlists.alerts({ responseMode: "response-only" }), decoders.alerts),
    health: () => run(client.health({ responseMode: "response-only" }), decoders.health)
  }
})
