import { type FeedPage, type FeedStart, type SourceFeed, SourceUnavailable } from "@tenders/core"
import { Clock, DateTime, Effect, Option, Random, Ref, Result, Stream } from "effect"
import { HttpClient } from "effect/http"
import { decodeTedCursor, encodeTedCursor, latestDay, rawNotices, tedDay, tedSearchBody } from "./feedQuery.ts"
import { searchOnce, type TedSearchPage } from "./feedRequest.ts"
import { tedNextToken } from "./parse.ts"

export { TED_SEARCH_FIELDS, type TedCursor } from "./feedQuery.ts"

/** Settings of the TED Search API feed. */
export interface TedFeedConfig {
  /** Default `https://api.ted.europa.eu`. */
  readonly baseUrl: string
  /** Notices per request, at most 250 (TED's maximum). */
  readonly pageSize: number
  /** At least this long between two requests, retries included (default 1000: far below TED's abuse limit). */
  readonly minIntervalMs: number
  /** Attempts per request for 429/5xx/timeouts/network errors/broken bodies (default 5). */
  readonly maxAttempts: number
  /** Honour `Retry-After` up to this many seconds, else give up at once (default 120). */
  readonly maxRetryAfterSeconds: number
  /** Time limit of one request, body included (default 30000). */
  readonly requestTimeoutMs: number
  /** First run without cursor or since: this many days back (default 7). */
  readonly lookbackDays: number
  /** First retry delay without `Retry-After`; doubles per attempt, with jitter (default 2000). */
  readonly backoffBaseMs: number
  /** Upper bound of one backoff delay (default 60000). */
  readonly maxBackoffMs: number
}

/** The defaults of {@link TedFeedConfig}. */
export const defaultTedFeedConfig: TedFeedConfig = {
  baseUrl: "https://api.ted.europa.eu",
  pageSize: 250,
  minIntervalMs: 1000,
  maxAttempts: 5,
  maxRetryAfterSeconds: 120,
  requestTimeoutMs: 30_000,
  lookbackDays: 7,
  backoffBaseMs: 2000,
  maxBackoffMs: 60_000
}

/** Where the next call of a run stands: the token to send, the day the iteration queries from, the latest day seen. */
interface IterationState {
  readonly token: string | null
  readonly queryFrom: string
  readonly from: string
  readonly seen: ReadonlySet<string>
}

const unavailable = (message: string) => new SourceUnavailable({ source: "ted", message })

/** The first call of a run: resume the cursor's iteration, or start one from its day, `since`, or the lookback. */
const startState = (start: FeedStart, lookbackDays: number): Effect.Effect<IterationState> =>
  Effect.gen(function* () {
    const cursor = decodeTedCursor(start.cursor)
    if (cursor === null && start.cursor !== null) {
      yield* Effect.logWarning("ted feed: ignoring an unreadable cursor", { cursor: start.cursor })
    }
    if (cursor !== null) {
      const seen = new Set(cursor.token === null ? [] : [cursor.token])
      return { token: cursor.token, queryFrom: cursor.from, from: cursor.from, seen }
    }
    const since = start.since ?? DateTime.subtract(yield* DateTime.now, { days: lookbackDays })
    const from = tedDay(since)
    return { token: null, queryFrom: from, from, seen: new Set<string>() }
  })

/** The TED Search API v3 as a {@link SourceFeed}: ITERATION paging by publication date, paced and retried. */
export const makeTedFeed = (config?: Partial<TedFeedConfig>): Effect.Effect<SourceFeed, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const cfg: TedFeedConfig = { ...defaultTedFeedConfig, ...config }
    const limit = Math.min(250, Math.max(1, Math.floor(cfg.pageSize)))
    const maxAttempts = Math.max(1, Math.floor(cfg.maxAttempts))
    const attemptOptions = {
      url: `${cfg.baseUrl.replace(/\/+$/u, "")}/v3/notices/search`,
      requestTimeoutMs: cfg.requestTimeoutMs,
      maxRetryAfterSeconds: cfg.maxRetryAfterSeconds
    }

    const backoff = (attempt: number): Effect.Effect<number> =>
      Effect.map(Random.nextBetween(0.5, 1), (jitter) =>
        Math.round(Math.min(cfg.maxBackoffMs, cfg.backoffBaseMs * 2 ** (attempt - 1)) * jitter)
      )

    const pages = (start: FeedStart): Stream.Stream<FeedPage, SourceUnavailable> =>
      Stream.unwrap(
        Effect.gen(function* () {
          const lastRequestAt = yield* Ref.make<number | null>(null)

          /** Waits until `minIntervalMs` has passed since the previous request of this run. */
          const pace = Effect.gen(function* () {
            const last = yield* Ref.get(lastRequestAt)
            const now = yield* Clock.currentTimeMillis
            if (last !== null && now - last < cfg.minIntervalMs) yield* Effect.sleep(cfg.minIntervalMs - (now - last))
            yield* Ref.set(lastRequestAt, yield* Clock.currentTimeMillis)
          })

          const send = Effect.fnUntraced(function* (
            body: Record<string, unknown>
          ): Effect.fn.Return<TedSearchPage, SourceUnavailable> {
            for (let attempt = 1; ; attempt++) {
              yield* pace
              const outcome = yield* Effect.result(searchOnce(client, body, attemptOptions))
              if (Result.isSuccess(outcome)) return outcome.success
              const failure = outcome.failure
              if (failure._tag === "Fatal") return yield* unavailable(failure.message)
              if (attempt >= maxAttempts) {
                return yield* unavailable(`${failure.message} (gave up after ${attempt} attempts)`)
              }
              const delayMs = failure.delayMs ?? (yield* backoff(attempt))
              yield* Effect.logWarning("ted feed: retrying", { attempt, delayMs, reason: failure.message })
              yield* Effect.sleep(delayMs)
            }
          })

          const step = Effect.fnUntraced(function* (state: IterationState) {
            const page = yield* send(tedSearchBody(state.queryFrom, state.token, limit))
            const notices = rawNotices(page.body)
            const from = latestDay(notices, state.from)
            const next = tedNextToken(page.body)
            const more = notices.length > 0 && next !== null && next !== state.token && !state.seen.has(next)
            const feedPage: FeedPage = {
              results: [page.result],
              cursor: encodeTedCursor({ token: more ? next : null, from })
            }
            const nextState: Option.Option<IterationState> =
              more && next !== null
                ? Option.some({ token: next, queryFrom: state.queryFrom, from, seen: new Set([...state.seen, next]) })
                : Option.none()
            return [[feedPage], nextState] as const
          })

          return Stream.paginate(yield* startState(start, cfg.lookbackDays), step)
        })
      )

    return { source: "ted", pages }
  })
