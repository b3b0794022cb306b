import type { FeedPage, FeedStart, SourceFeed, SourceUnavailable } from "@tenders/core"
import { DateTime, Effect, Option, Stream } from "effect"
import { HttpClientRequest } from "effect/http"
import { makeFeedFetch } from "../http/FeedHttp.ts"
import { defaultFeedHttpPolicy, type FeedHttpPolicy } from "../http/FeedHttpPolicy.ts"
import { decodeTedCursor, encodeTedCursor, latestDay, tedDay, tedSearchBody } from "./feedQuery.ts"
import { readTedReply } from "./feedRequest.ts"

export { TED_SEARCH_FIELDS, type TedCursor } from "./feedQuery.ts"

/** Settings of the TED Search API feed. */
export interface TedFeedConfig extends FeedHttpPolicy {
  /** Default `https://api.ted.europa.eu`. */
  readonly baseUrl: string
  /** Notices per request, at most 250 (TED's maximum). */
  readonly pageSize: number
  /** First run without cursor or since: this many days back (default 7). */
  readonly lookbackDays: number
}

/** The defaults of {@link TedFeedConfig}: one request a second, far below TED's abuse limit. */
export const defaultTedFeedConfig: TedFeedConfig = {
  ...defaultFeedHttpPolicy,
  baseUrl: "https://api.ted.europa.eu",
  pageSize: 250,
  lookbackDays: 7
}

/** Where the next call of a run stands: the token to send, the day the iteration queries from, the latest day seen. */
interface IterationState {
  readonly token: string | null
  readonly queryFrom: string
  readonly from: string
  readonly seen: ReadonlySet<string>
}

/** The first call of a run: resume the cursor's iteration, or start one from its day, `since`, or the lookback. */
const startState = Effect.fn("ted.startState")(function* (start: FeedStart, lookbackDays: number) {
  const cursor = decodeTedCursor(start.cursor)
  if (cursor === null && start.cursor !== null) {
    yield* Effect.logWarning("ted feed: ignoring an unreadable cursor", { cursor: start.cursor })
  }
  if (cursor !== null) {
    const seen = new Set(cursor.token === null ? [] : [cursor.token])
    return { token: cursor.token, queryFrom: cursor.from, from: cursor.from, seen } satisfies IterationState
  }
  const since = start.since ?? DateTime.subtract(yield* DateTime.now, { days: lookbackDays })
  const from = tedDay(since)
  return { token: null, queryFrom: from, from, seen: new Set<string>() } satisfies IterationState
})

/** The TED Search API v3 as a {@link SourceFeed}: ITERATION paging by publication date, paced and retried. */
export const makeTedFeed = Effect.fn("makeTedFeed")(function* (config: Partial<TedFeedConfig> = {}) {
  const settings: TedFeedConfig = { ...defaultTedFeedConfig, ...config }
  const fetch = yield* makeFeedFetch("ted", settings)
  const limit = Math.min(250, Math.max(1, Math.floor(settings.pageSize)))
  const url = `${settings.baseUrl.replace(/\/+$/u, "")}/v3/notices/search`

  const step = Effect.fnUntraced(function* (state: IterationState) {
    const request = HttpClientRequest.post(url).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.bodyJsonUnsafe(tedSearchBody(state.queryFrom, state.token, limit))
    )
    const page = yield* fetch(`POST ${url}`, request, readTedReply)
    const { notices, nextToken: next } = page.response
    const from = latestDay(notices, state.from)
    const more = notices.length > 0 && next !== null && next !== state.token && !state.seen.has(next)
    const feedPage: FeedPage = { results: [page.result], cursor: encodeTedCursor({ token: more ? next : null, from }) }
    const nextState: Option.Option<IterationState> =
      more && next !== null
        ? Option.some({ token: next, queryFrom: state.queryFrom, from, seen: new Set([...state.seen, next]) })
        : Option.none()
    return [[feedPage], nextState] as const
  })

  const pages = (start: FeedStart): Stream.Stream<FeedPage, SourceUnavailable> =>
    Stream.unwrap(Effect.map(startState(start, settings.lookbackDays), (state) => Stream.paginate(state, step)))

  const feed: SourceFeed = { source: "ted", pages }
  return feed
})
