import { errorCodes, ErrorResponse, isErrorTag } from "@tenders/contract"
import type {
  AlertsResponse,
  FullTender,
  HealthReport,
  SearchRequest,
  SearchResponse,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
import { Cause, Clock, Context, Effect, Exit, Layer, ManagedRuntime, Option, Predicate, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError } from "effect/http"
import { type CallFailure, makeCalls } from "./Calls.ts"
import { TendersApiError, TendersError, TendersNetworkError, TendersResponseError } from "./Errors.ts"
import { parseRetryAfter } from "./Retry.ts"

/** Options of {@link createTendersClient}. */
export interface CreateTendersClientOptions {
  /** The service's base address, e.g. `https://tenders.example.com`. */
  readonly baseUrl: string | URL
  /** A REST key (`sk_live_...`); only `health()` works without one. */
  readonly apiKey?: string | undefined
  /** The `fetch` to use (default `globalThis.fetch`). */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** Retries after the first attempt on network errors, 5xx and short 429s (default 3; 0 disables). */
  readonly maxRetries?: number | undefined
  /** Delay before the first retry in ms, doubling per retry with jitter, at most 30 s (default 500). */
  readonly retryDelayMs?: number | undefined
  /** The longest `Retry-After` waited out, in seconds; a longer one is thrown at once (default 60). */
  readonly maxRetryAfterSeconds?: number | undefined
  /** Time limit of one attempt in ms, until the response headers arrive (default 30 000). */
  readonly timeoutMs?: number | undefined
}

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call (and any retry wait); the promise rejects with the signal's reason, like `fetch`. */
  readonly signal?: AbortSignal | undefined
}

/**
 * The promise client. Results are the contract's JSON shapes as on the wire: budgets are decimal strings
 * (`"1250000.50"`), instants are UTC ISO strings ending in `Z`. Failures throw {@link TendersApiError} (the seven
 * contract codes), {@link TendersNetworkError} or {@link TendersResponseError}, all subclasses of {@link TendersError}.
 */
export interface TendersPromiseClient {
  /** `POST /v1/tenders/search`: open tenders, best match first. */
  readonly searchTenders: (request: SearchRequest, options?: RequestOptions) => Promise<SearchResponse>
  /** `GET /v1/tenders/{id}`: the full card of one tender; `not_found` for an unknown id. */
  readonly getTender: (id: string, options?: RequestOptions) => Promise<FullTender>
  /** `POST /v1/watchlists`: saves filters as a watchlist. */
  readonly createWatchlist: (input: WatchlistInput, options?: RequestOptions) => Promise<WatchlistCreated>
  /** `GET /v1/alerts`: open alerts of the caller's watchlists, nearest deadline first. */
  readonly listAlerts: (options?: RequestOptions) => Promise<AlertsResponse>
  /** `GET /health`: service and source health (needs no key). */
  readonly health: (options?: RequestOptions) => Promise<HealthReport>
}

type Calls = Effect.Success<ReturnType<typeof makeCalls>>

class CallsService extends Context.Service<CallsService, Calls>()("@tenders/client-sdk/CallsService") {}

const decodeErrorBody = Schema.decodeUnknownOption(Schema.fromJsonString(ErrorResponse))

const toTendersError = Effect.fnUntraced(function* (failure: CallFailure<unknown>) {
  const { error, response } = failure
  const now = yield* Clock.currentTimeMillis
  const retryAfter = parseRetryAfter(response?.headers["retry-after"], now)
  const known = Predicate.hasProperty(error, "_tag") && isErrorTag(error._tag) ? errorCodes[error._tag] : undefined
  if (known !== undefined && Predicate.hasProperty(error, "message") && typeof error.message === "string") {
    return new TendersApiError({
      code: known.code,
      status: response?.status ?? known.status,
      message: error.message,
      retryAfter
    })
  }
  if (HttpClientError.isHttpClientError(error) && error.reason._tag === "TransportError") {
    return new TendersNetworkError(error.message, { cause: error })
  }
  if (response === undefined) return new TendersError(String(error), { cause: error })
  // An undeclared status may still carry the contract's error body (e.g. 404 not_found for a wrong path).
  const body = decodeErrorBody(yield* Effect.orElseSucceed(response.text, () => ""))
  if (Option.isSome(body)) {
    const { code, message } = body.value.error
    return new TendersApiError({ code, status: response.status, message, retryAfter })
  }
  const what = Schema.isSchemaError(error)
    ? "a body that does not match the contract"
    : "a status the contract does not declare"
  return new TendersResponseError(
    `${response.request.method} ${response.request.url} answered ${response.status} with ${what}`,
    response.status,
    { cause: error }
  )
})

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

const aborted = (signal: AbortSignal | undefined): unknown =>
  signal?.reason ?? new DOMException("This operation was aborted", "AbortError")

/**
 * Creates the promise client for people without Effect. It retries network errors and 5xx with backoff, and a
 * 429 only when its `Retry-After` is short (at most `maxRetryAfterSeconds`); a monthly quota is thrown at once.
 */
export const createTendersClient = (options: CreateTendersClientOptions): TendersPromiseClient => {
  const layer = Layer.effect(
    CallsService,
    makeCalls({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      retry: {
        maxRetries: options.maxRetries,
        baseDelay: options.retryDelayMs,
        maxRetryAfter: options.maxRetryAfterSeconds === undefined ? undefined : options.maxRetryAfterSeconds * 1000,
        attemptTimeout: options.timeoutMs
      }
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
  const runtime = ManagedRuntime.make(layer)
  const fetchImpl = options.fetch
  const call = async <A>(
    use: (calls: Calls) => Effect.Effect<A, CallFailure<unknown>>,
    requestOptions: RequestOptions | undefined
  ): Promise<A> => {
    const signal = requestOptions?.signal
    if (isAborted(signal)) throw aborted(signal)
    const program = CallsService.use(use).pipe(
      Effect.catch((failure) => Effect.flatMap(toTendersError(failure), Effect.fail)),
      // No tracer here: `b3`/`traceparent` headers would only make browsers send CORS preflights.
      Effect.provideService(HttpClient.TracerPropagationEnabled, false),
      fetchImpl === undefined ? (effect) => effect : Effect.provideService(FetchHttpClient.Fetch, fetchImpl)
    )
    const exit = await runtime.runPromiseExit(program, signal === undefined ? {} : { signal })
    if (Exit.isSuccess(exit)) return exit.value
    if (isAborted(signal) && Cause.hasInterrupts(exit.cause)) throw aborted(signal)
    const failure = Cause.findErrorOption(exit.cause)
    throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause)
  }
  return {
    searchTenders: (request, requestOptions) => call((calls) => calls.searchTenders(request), requestOptions),
    getTender: (id, requestOptions) => call((calls) => calls.getTender(id), requestOptions),
    createWatchlist: (input, requestOptions) => call((calls) => calls.createWatchlist(input), requestOptions),
    listAlerts: (requestOptions) => call((calls) => calls.listAlerts(), requestOptions),
    health: (requestOptions) => call((calls) => calls.health(), requestOptions)
  }
}
