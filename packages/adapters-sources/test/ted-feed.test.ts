import { type FeedPage, type FeedStart, SourceUnavailable } from "@tenders/core"
import { afterAll, afterEach, assert, beforeAll, describe, it } from "@effect/vitest"
import { DateTime, Effect, Predicate, References, Result, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import { delay, http, HttpResponse, type JsonBodyType } from "msw"
import { setupServer } from "msw/node"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { makeTedFeed, TED_SEARCH_FIELDS, type TedFeedConfig } from "../src/ted/Feed.ts"

const BASE = "http://ted.test"
const SEARCH = `${BASE}/v3/notices/search`

const fixtureText = (name: string): string => readFileSync(join(import.meta.dirname, "fixtures", "ted", name), "utf8")
const fixture = (name: string): Record<string, unknown> => {
  const parsed: unknown = JSON.parse(fixtureText(name))
  if (!Predicate.isObject(parsed)) throw new Error(`fixture ${name} is not an object`)
  return { ...parsed }
}
/** One notice published 2016-11-23. */
const ES = fixture("search-response-es-links-per-language.json")
/** Two notices published 2026-07-13 and 2026-04-29, iterationNextToken null. */
const DE = fixture("search-response-de-competition-and-result.json")
const withToken = (body: Record<string, unknown>, token: string | null) => ({ ...body, iterationNextToken: token })

type Reply = () => Response | Promise<Response>
const json =
  (body: JsonBodyType, init?: ResponseInit): Reply =>
  () =>
    HttpResponse.json(body, init)
const text =
  (body: string, status = 200): Reply =>
  () =>
    new HttpResponse(body, { status })

interface Call {
  readonly body: Record<string, unknown>
}

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

/** Answers the search endpoint with `replies` in order (418 = an unexpected extra request); records every call. */
const scripted = (...replies: ReadonlyArray<Reply>): Array<Call> => {
  const calls: Array<Call> = []
  server.use(
    http.post(SEARCH, async ({ request }) => {
      const body: unknown = await request.json()
      calls.push({ body: Predicate.isObject(body) ? { ...body } : {} })
      const reply = replies[calls.length - 1]
      return reply === undefined ? HttpResponse.json({ message: "unexpected request" }, { status: 418 }) : reply()
    })
  )
  return calls
}

const fast: Partial<TedFeedConfig> = {
  baseUrl: BASE,
  pageSize: 100,
  minIntervalMs: 1,
  backoffBaseMs: 1,
  maxBackoffMs: 10,
  requestTimeoutMs: 500,
  maxAttempts: 3
}

const noStart: FeedStart = { cursor: null, since: null }
const since = (iso: string): FeedStart => ({ cursor: null, since: DateTime.makeUnsafe(iso) })
/** Before every fixture's publication date. */
const old = since("2016-01-01T00:00:00Z")

/** Runs the feed to its end; the pages it emitted, how it ended, and how long it took. */
const run = (start: FeedStart, config: Partial<TedFeedConfig> = {}) =>
  Effect.gen(function* () {
    const feed = yield* makeTedFeed({ ...fast, ...config })
    const pages: Array<FeedPage> = []
    const began = performance.now()
    const result = yield* feed.pages(start).pipe(
      Stream.runForEach((page) => Effect.sync(() => pages.push(page))),
      Effect.result
    )
    return { pages, result, elapsed: performance.now() - began }
  }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(References.MinimumLogLevel, "Error"))

const cursorOf = (page: FeedPage | undefined): unknown => JSON.parse(page?.cursor ?? "null")
const ids = (page: FeedPage | undefined): Array<string> =>
  (page?.results ?? []).flatMap((r) => r.notices.map((n) => n.record.nativeId))
const failure = (result: Result.Result<void, SourceUnavailable>): SourceUnavailable => {
  if (Result.isSuccess(result)) throw new Error("expected the feed to fail")
  assert.instanceOf(result.failure, SourceUnavailable)
  assert.strictEqual(result.failure.source, "ted")
  return result.failure
}

describe("makeTedFeed: paging and cursors", () => {
  it.live("reads a two-page iteration from `since`, paced, cursors advancing", () =>
    Effect.gen(function* () {
      const calls = scripted(json(withToken(ES, "tok-1")), json(DE))
      const { pages, result, elapsed } = yield* run(since("2016-11-01T12:00:00Z"), { minIntervalMs: 150 })
      assert.isTrue(Result.isSuccess(result))
      assert.deepStrictEqual(pages.map(ids), [["412169-2016"], ["479730-2026", "291981-2026"]])
      assert.deepStrictEqual(pages.map(cursorOf), [
        { token: "tok-1", from: "20161123" },
        { token: null, from: "20260713" }
      ])
      const query = "publication-date >= 20161101 SORT BY publication-date ASC"
      assert.deepStrictEqual(calls[0]?.body, {
        query,
        fields: [...TED_SEARCH_FIELDS],
        limit: 100,
        scope: "ALL",
        paginationMode: "ITERATION",
        onlyLatestVersions: false
      })
      assert.strictEqual(calls[1]?.body["iterationNextToken"], "tok-1")
      assert.strictEqual(calls[1]?.body["query"], query)
      assert.isAtLeast(elapsed, 140)
    })
  )

  it.live("resumes the iteration of a saved cursor", () =>
    Effect.gen(function* () {
      const calls = scripted(json(DE))
      const { pages, result } = yield* run({
        cursor: JSON.stringify({ token: "tok-7", from: "20260401" }),
        since: null
      })
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls[0]?.body["iterationNextToken"], "tok-7")
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260401 SORT BY publication-date ASC")
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: null, from: "20260713" }])
    })
  )

  it.live("starts a new iteration from a finished cursor's day; an unreadable cursor falls back to since", () =>
    Effect.gen(function* () {
      const calls = scripted(json(DE), json(ES))
      yield* run({ cursor: JSON.stringify({ token: null, from: "20260713" }), since: null })
      yield* run({ cursor: "not json", since: DateTime.makeUnsafe("2016-01-02T00:00:00Z") })
      assert.isFalse("iterationNextToken" in (calls[0]?.body ?? {}))
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260713 SORT BY publication-date ASC")
      assert.strictEqual(calls[1]?.body["query"], "publication-date >= 20160102 SORT BY publication-date ASC")
    })
  )

  it.effect("without cursor or since starts lookbackDays before the Clock's today", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-07-20T10:00:00Z"))
      const calls = scripted(json(DE))
      const { pages } = yield* run(noStart, { lookbackDays: 7, minIntervalMs: 0 })
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260713 SORT BY publication-date ASC")
      assert.strictEqual(pages.length, 1)
    })
  )

  it.live("stops when the token repeats or the notices run out", () =>
    Effect.gen(function* () {
      const calls = scripted(json(withToken(ES, "tok-1")), json(withToken(ES, "tok-2")), json(withToken(DE, "tok-1")))
      const { pages } = yield* run(old)
      assert.strictEqual(calls.length, 3)
      assert.deepStrictEqual(pages.map(cursorOf).at(-1), { token: null, from: "20260713" })
      server.resetHandlers()
      const again = scripted(json(withToken(ES, "tok-1")), json({ notices: [], iterationNextToken: "tok-2" }))
      const second = yield* run(old)
      assert.strictEqual(again.length, 2)
      assert.deepStrictEqual(second.pages.map(cursorOf), [
        { token: "tok-1", from: "20161123" },
        { token: null, from: "20161123" }
      ])
    })
  )
})

describe("makeTedFeed: robustness", () => {
  it.live("waits Retry-After on 429, then succeeds", () =>
    Effect.gen(function* () {
      const calls = scripted(json({}, { status: 429, headers: { "Retry-After": "1" } }), json(DE))
      const { pages, result, elapsed } = yield* run(noStart)
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
      assert.isAtLeast(elapsed, 950)
    })
  )

  it.live("fails at once on a Retry-After beyond maxRetryAfterSeconds, after the good pages", () =>
    Effect.gen(function* () {
      const calls = scripted(
        json(withToken(ES, "tok-1")),
        json({}, { status: 429, headers: { "Retry-After": "3600" } })
      )
      const { pages, result, elapsed } = yield* run(old, { maxRetryAfterSeconds: 120 })
      assert.match(failure(result).message, /Retry-After 3600s/u)
      assert.strictEqual(calls.length, 2)
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: "tok-1", from: "20161123" }])
      assert.isBelow(elapsed, 1000)
    })
  )

  it.live("retries 503 twice, a network error and a 429 without Retry-After (backoff), then succeeds", () =>
    Effect.gen(function* () {
      const busy = text("busy", 503)
      const calls = scripted(busy, () => HttpResponse.error(), busy, json({}, { status: 429 }), json(DE))
      const { pages, result } = yield* run(noStart, { maxAttempts: 5 })
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls.length, 5)
      assert.deepStrictEqual(pages.map(ids), [["479730-2026", "291981-2026"]])
    })
  )

  it.live("gives up after maxAttempts 5xx answers", () =>
    Effect.gen(function* () {
      const calls = scripted(text("down", 502), text("down", 502), text("down", 502))
      const { pages, result } = yield* run(noStart, { maxAttempts: 3 })
      assert.match(failure(result).message, /HTTP 502.*gave up after 3 attempts/u)
      assert.strictEqual(calls.length, 3)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.live("an unmocked host is an error, never a real request (onUnhandledFrame: error)", () =>
    Effect.gen(function* () {
      const { pages, result } = yield* run(noStart, { baseUrl: "http://unmocked.test", maxAttempts: 2 })
      assert.match(failure(result).message, /request failed.*gave up after 2 attempts/u)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.live("retries a request that does not answer within requestTimeoutMs", () =>
    Effect.gen(function* () {
      const slow: Reply = async () => {
        await delay(1500)
        return HttpResponse.json(DE)
      }
      const calls = scripted(slow, json(DE))
      const { pages, result, elapsed } = yield* run(noStart, { requestTimeoutMs: 100 })
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
      assert.isBelow(elapsed, 1200)
    })
  )

  it.live("retries garbage and truncated bodies, then fails with the good pages emitted", () =>
    Effect.gen(function* () {
      const truncated = fixtureText("search-response-de-competition-and-result.json").slice(0, 700)
      const calls = scripted(
        json(withToken(ES, "tok-1")),
        text("<html>502 Bad Gateway</html>"),
        text(truncated),
        json({ foo: 1 })
      )
      const { pages, result } = yield* run(old, { maxAttempts: 3 })
      assert.match(failure(result).message, /not a TED search response.*gave up after 3 attempts/u)
      assert.strictEqual(calls.length, 4)
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: "tok-1", from: "20161123" }])
      assert.strictEqual(calls[3]?.body["iterationNextToken"], "tok-1")
    })
  )

  it.live("a truncated body followed by a good one is just retried", () =>
    Effect.gen(function* () {
      const calls = scripted(
        text(fixtureText("search-response-de-competition-and-result.json").slice(0, 300)),
        json(DE)
      )
      const { pages, result } = yield* run(noStart)
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
    })
  )

  it.live("fails at once on a 400 query error, with TED's message", () =>
    Effect.gen(function* () {
      const calls = scripted(json(fixture("error-400-query-syntax.json"), { status: 400 }))
      const { pages, result } = yield* run(noStart)
      assert.match(failure(result).message, /HTTP 400.*QUERY_SYNTAX_ERROR: Syntax error in expert query/u)
      assert.strictEqual(calls.length, 1)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.live("retries a `timedOut: true` partial result", () =>
    Effect.gen(function* () {
      const calls = scripted(json({ ...withToken(ES, "tok-1"), timedOut: true }), json(DE))
      const { pages, result } = yield* run(noStart)
      assert.isTrue(Result.isSuccess(result))
      assert.strictEqual(calls.length, 2)
      assert.deepStrictEqual(pages.map(ids), [["479730-2026", "291981-2026"]])
    })
  )
})
