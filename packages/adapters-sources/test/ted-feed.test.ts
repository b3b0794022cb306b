import { type FeedPage, type FeedStart, SourceUnavailable } from "@tenders/core"
import { afterAll, afterEach, assert, beforeAll, describe, it } from "@effect/vitest"
import { DateTime, Effect, Predicate } from "effect"
import { TestClock } from "effect/testing"
import { http, HttpResponse, type JsonBodyType } from "msw"
import { setupServer } from "msw/node"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { makeTedFeed, TED_SEARCH_FIELDS, type TedFeedConfig } from "../src/ted/Feed.ts"
import { eventually, finished, runToEnd, settle, startRun } from "./feedHarness.ts"

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
/** A server that never answers. */
const silence: Reply = () => new Promise<Response>(() => undefined)

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

/** No pacing and no backoff, so a run only waits on the clock where a test says so. */
const instant: Partial<TedFeedConfig> = {
  baseUrl: BASE,
  pageSize: 100,
  minIntervalMs: 0,
  backoffBaseMs: 0,
  maxBackoffMs: 0,
  requestTimeoutMs: 60_000,
  maxAttempts: 3
}
const feed = (config: Partial<TedFeedConfig> = {}) => makeTedFeed({ ...instant, ...config })

const noStart: FeedStart = { cursor: null, since: null }
const since = (iso: string): FeedStart => ({ cursor: null, since: DateTime.makeUnsafe(iso) })
/** Before every fixture's publication date. */
const old = since("2016-01-01T00:00:00Z")

const cursorOf = (page: FeedPage | undefined): unknown => JSON.parse(page?.cursor ?? "null")
const ids = (page: FeedPage | undefined): Array<string> =>
  (page?.results ?? []).flatMap((r) => r.notices.map((n) => n.record.nativeId))
const failure = (error: SourceUnavailable | null): SourceUnavailable => {
  assert.instanceOf(error, SourceUnavailable)
  assert.strictEqual(error.source, "ted")
  return error
}

describe("makeTedFeed: paging and cursors", () => {
  it.effect("reads a two-page iteration from `since`, the second request minIntervalMs after the first", () =>
    Effect.gen(function* () {
      const calls = scripted(json(withToken(ES, "tok-1")), json(DE))
      const run = yield* startRun(feed({ minIntervalMs: 150 }), since("2016-11-01T12:00:00Z"))
      yield* eventually(() => run.pages.length === 1, "the first page is emitted")
      yield* TestClock.adjust("149 millis")
      yield* settle
      assert.strictEqual(calls.length, 1)
      yield* TestClock.adjust("1 millis")
      const { pages, error } = yield* finished(run)
      assert.isNull(error)
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
    })
  )

  it.effect("resumes the iteration of a saved cursor", () =>
    Effect.gen(function* () {
      const calls = scripted(json(DE))
      const { pages, error } = yield* runToEnd(feed(), {
        cursor: JSON.stringify({ token: "tok-7", from: "20260401" }),
        since: null
      })
      assert.isNull(error)
      assert.strictEqual(calls[0]?.body["iterationNextToken"], "tok-7")
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260401 SORT BY publication-date ASC")
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: null, from: "20260713" }])
    })
  )

  it.effect("starts a new iteration from a finished cursor's day; an unreadable cursor falls back to since", () =>
    Effect.gen(function* () {
      const calls = scripted(json(DE), json(ES))
      yield* runToEnd(feed(), { cursor: JSON.stringify({ token: null, from: "20260713" }), since: null })
      yield* runToEnd(feed(), { cursor: "not json", since: DateTime.makeUnsafe("2016-01-02T00:00:00Z") })
      assert.isFalse("iterationNextToken" in (calls[0]?.body ?? {}))
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260713 SORT BY publication-date ASC")
      assert.strictEqual(calls[1]?.body["query"], "publication-date >= 20160102 SORT BY publication-date ASC")
    })
  )

  it.effect("without cursor or since starts lookbackDays before the Clock's today", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-07-20T10:00:00Z"))
      const calls = scripted(json(DE))
      const { pages } = yield* runToEnd(feed({ lookbackDays: 7 }), noStart)
      assert.strictEqual(calls[0]?.body["query"], "publication-date >= 20260713 SORT BY publication-date ASC")
      assert.strictEqual(pages.length, 1)
    })
  )

  it.effect("stops when the token repeats or the notices run out", () =>
    Effect.gen(function* () {
      const calls = scripted(json(withToken(ES, "tok-1")), json(withToken(ES, "tok-2")), json(withToken(DE, "tok-1")))
      const { pages } = yield* runToEnd(feed(), old)
      assert.strictEqual(calls.length, 3)
      assert.deepStrictEqual(pages.map(cursorOf).at(-1), { token: null, from: "20260713" })
      server.resetHandlers()
      const again = scripted(json(withToken(ES, "tok-1")), json({ notices: [], iterationNextToken: "tok-2" }))
      const second = yield* runToEnd(feed(), old)
      assert.strictEqual(again.length, 2)
      assert.deepStrictEqual(second.pages.map(cursorOf), [
        { token: "tok-1", from: "20161123" },
        { token: null, from: "20161123" }
      ])
    })
  )
})

describe("makeTedFeed: robustness", () => {
  it.effect("waits out a 429's Retry-After on the clock, then succeeds", () =>
    Effect.gen(function* () {
      const calls = scripted(json({}, { status: 429, headers: { "Retry-After": "1" } }), json(DE))
      const run = yield* startRun(feed(), noStart)
      yield* eventually(() => calls.length === 1, "the first request")
      yield* settle
      yield* TestClock.adjust("999 millis")
      yield* settle
      assert.strictEqual(calls.length, 1)
      yield* TestClock.adjust("1 millis")
      const { pages, error } = yield* finished(run)
      assert.isNull(error)
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
    })
  )

  it.effect("fails at once on a Retry-After beyond maxRetryAfterSeconds, after the good pages", () =>
    Effect.gen(function* () {
      const calls = scripted(
        json(withToken(ES, "tok-1")),
        json({}, { status: 429, headers: { "Retry-After": "3600" } })
      )
      const { pages, error } = yield* runToEnd(feed({ maxRetryAfterSeconds: 120 }), old)
      assert.match(failure(error).message, /HTTP 429, Retry-After 3600 s: more than the 120 s/u)
      assert.strictEqual(calls.length, 2)
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: "tok-1", from: "20161123" }])
    })
  )

  it.effect("retries 503 twice, a network error and a 429 without Retry-After, then succeeds", () =>
    Effect.gen(function* () {
      const busy = text("busy", 503)
      const calls = scripted(busy, () => HttpResponse.error(), busy, json({}, { status: 429 }), json(DE))
      const { pages, error } = yield* runToEnd(feed({ maxAttempts: 5 }), noStart)
      assert.isNull(error)
      assert.strictEqual(calls.length, 5)
      assert.deepStrictEqual(pages.map(ids), [["479730-2026", "291981-2026"]])
    })
  )

  it.effect("backs off exponentially with jitter: 1 s ± 20 %, then 2 s ± 20 %", () =>
    Effect.gen(function* () {
      const busy = text("busy", 503)
      const calls = scripted(busy, busy, json(DE))
      const run = yield* startRun(feed({ backoffBaseMs: 1000, maxBackoffMs: 60_000 }), noStart)
      yield* eventually(() => calls.length === 1, "the first request")
      yield* settle
      // First retry after 800-1200 ms; the second 1600-2400 ms after the first, so between 2400 and 3600 ms.
      yield* TestClock.adjust("799 millis")
      yield* settle
      assert.strictEqual(calls.length, 1)
      yield* TestClock.adjust("401 millis")
      yield* eventually(() => calls.length === 2, "the first retry")
      yield* settle
      yield* TestClock.adjust("1199 millis")
      yield* settle
      assert.strictEqual(calls.length, 2)
      yield* TestClock.adjust("1201 millis")
      const { error } = yield* finished(run)
      assert.isNull(error)
      assert.strictEqual(calls.length, 3)
    })
  )

  it.effect("gives up after maxAttempts 5xx answers", () =>
    Effect.gen(function* () {
      const calls = scripted(text("down", 502), text("down", 502), text("down", 502))
      const { pages, error } = yield* runToEnd(feed({ maxAttempts: 3 }), noStart)
      assert.match(failure(error).message, /HTTP 502.*gave up after 3 attempts/u)
      assert.strictEqual(calls.length, 3)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.effect("fails at once on a status no retry cures (501)", () =>
    Effect.gen(function* () {
      const calls = scripted(text("not here", 501), json(DE))
      const { error } = yield* runToEnd(feed(), noStart)
      assert.match(failure(error).message, /HTTP 501: not here$/u)
      assert.strictEqual(calls.length, 1)
    })
  )

  it.effect("an unmocked host is an error, never a real request (onUnhandledFrame: error)", () =>
    Effect.gen(function* () {
      const { pages, error } = yield* runToEnd(feed({ baseUrl: "http://unmocked.test", maxAttempts: 2 }), noStart)
      assert.match(failure(error).message, /request failed.*gave up after 2 attempts/u)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.effect("retries a request that does not answer within requestTimeoutMs", () =>
    Effect.gen(function* () {
      const calls = scripted(silence, json(DE))
      const run = yield* startRun(feed({ requestTimeoutMs: 100 }), noStart)
      yield* eventually(() => calls.length === 1, "the first request")
      yield* TestClock.adjust("99 millis")
      yield* settle
      assert.strictEqual(calls.length, 1)
      yield* TestClock.adjust("1 millis")
      const { pages, error } = yield* finished(run)
      assert.isNull(error)
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
    })
  )

  it.effect("retries garbage and truncated bodies, then fails with the good pages emitted", () =>
    Effect.gen(function* () {
      const truncated = fixtureText("search-response-de-competition-and-result.json").slice(0, 700)
      const calls = scripted(
        json(withToken(ES, "tok-1")),
        text("<html>502 Bad Gateway</html>"),
        text(truncated),
        json({ foo: 1 })
      )
      const { pages, error } = yield* runToEnd(feed({ maxAttempts: 3 }), old)
      assert.match(failure(error).message, /not a TED search response.*gave up after 3 attempts/u)
      assert.strictEqual(calls.length, 4)
      assert.deepStrictEqual(pages.map(cursorOf), [{ token: "tok-1", from: "20161123" }])
      assert.strictEqual(calls[3]?.body["iterationNextToken"], "tok-1")
    })
  )

  it.effect("a truncated body followed by a good one is just retried", () =>
    Effect.gen(function* () {
      const calls = scripted(
        text(fixtureText("search-response-de-competition-and-result.json").slice(0, 300)),
        json(DE)
      )
      const { pages, error } = yield* runToEnd(feed(), noStart)
      assert.isNull(error)
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(pages.length, 1)
    })
  )

  it.effect("fails at once on a 400 query error, with TED's message", () =>
    Effect.gen(function* () {
      const calls = scripted(json(fixture("error-400-query-syntax.json"), { status: 400 }))
      const { pages, error } = yield* runToEnd(feed(), noStart)
      assert.match(failure(error).message, /HTTP 400.*QUERY_SYNTAX_ERROR: Syntax error in expert query/u)
      assert.strictEqual(calls.length, 1)
      assert.strictEqual(pages.length, 0)
    })
  )

  it.effect("retries a `timedOut: true` partial result", () =>
    Effect.gen(function* () {
      const calls = scripted(json({ ...withToken(ES, "tok-1"), timedOut: true }), json(DE))
      const { pages, error } = yield* runToEnd(feed(), noStart)
      assert.isNull(error)
      assert.strictEqual(calls.length, 2)
      assert.deepStrictEqual(pages.map(ids), [["479730-2026", "291981-2026"]])
    })
  )
})
