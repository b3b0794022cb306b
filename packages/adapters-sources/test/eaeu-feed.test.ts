import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import type { FeedPage, FeedStart } from "@tenders/core"
import { DateTime, Effect, Result } from "effect"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import { setupServer } from "msw/node"
import { afterAll, afterEach, beforeAll } from "vitest"
import { makeEisFeed } from "../src/eaeu/Feed.ts"
import type { EisFeedConfig } from "../src/eaeu/Feed.ts"
import { readZip } from "../src/eaeu/feedZip.ts"
import { eventually, finished, runToEnd, settle, startRun } from "./feedHarness.ts"
import { zip } from "./fixtures/eaeu/feed/zipWriter.ts"

// Recorded EIS documents are shared with the parser tests; the invented SOAP replies live in feed/.
const fixture = (name: string): string =>
  readFileSync(
    new URL(name.startsWith("INVENTED_") ? `./fixtures/eaeu/feed/${name}` : `./fixtures/eaeu/${name}`, import.meta.url),
    "utf8"
  )
const V1 = fixture("RECONSTRUCTED_epNotificationEF2020_0111200004623000009_v1.xml")
const CANCEL = fixture("RECONSTRUCTED_epNotificationCancel_0101500000623000049.xml")
const SOAP_TWO = fixture("INVENTED_getDocsIP-response-two-archives.xml")
const SOAP_EMPTY = fixture("INVENTED_getDocsIP-response-empty.xml")
const SOAP_FAULT = fixture("INVENTED_soap-fault.xml")
const ITEM = /<item>\s*<author>[\s\S]*<\/item>/u.exec(fixture("rss-search-feed-item-2019-real.xml"))?.[0] ?? ""

const RSS = "https://zakupki.gov.ru/epz/order/extendedsearch/rss.html"
const SOAP = "https://int44.zakupki.gov.ru/eis-integration/services/getDocsIP"
const ARCHIVE_1 = "https://int44.zakupki.gov.ru/eis-integration/test-archives/77_notices_1.zip"
const ARCHIVE_2 = "https://int44.zakupki.gov.ru/eis-integration/test-archives/77_notices_2.zip"
const TOKEN = "11111111-2222-3333-4444-555555555555"

/** A real RSS item re-numbered and re-dated ("Обновлено" dd.mm.yyyy). */
const item = (regNumber: string, updated: string): string =>
  ITEM.replaceAll("206520000011900119", regNumber).replace("04.07.2019", updated)
const rss = (...items: ReadonlyArray<string>): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Результаты поиска</title>` +
  `${items.join("\n")}</channel></rss>`
const xmlReply = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new HttpResponse(body, { status, headers: { "content-type": "text/xml; charset=utf-8", ...headers } })
/** Matches the given XML pieces in this order, with only whitespace between them. */
const inOrder = (...pieces: ReadonlyArray<string>): RegExp => new RegExp(pieces.join("\\s*"), "u")

const ZIP = zip([
  { name: "epNotificationEF2020_0111200004623000009_1.xml", text: V1 },
  { name: "epNotificationCancel.xml", text: CANCEL, stored: true },
  { name: "epNotificationCancel.xml.sig", text: "signature" }
])
const zipReply = (bytes: Uint8Array<ArrayBuffer>) =>
  HttpResponse.arrayBuffer(bytes.buffer, { headers: { "content-type": "application/zip" } })

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

/** No pacing and no backoff, so a run only waits on the clock where a test says so. */
const INSTANT: Partial<EisFeedConfig> = {
  minIntervalMs: 0,
  backoffBaseMs: 0,
  maxBackoffMs: 0,
  maxAttempts: 3,
  maxRetryAfterSeconds: 5,
  requestTimeoutMs: 60_000
}
/** The TestClock's "now" of every run (the feed's "today"): noon in Moscow. */
const NOW = "2024-03-14T09:00:00Z"
const feed = (config: Partial<EisFeedConfig> = {}) =>
  Effect.andThen(TestClock.setTime(Date.parse(NOW)), makeEisFeed({ ...INSTANT, ...config }))
const TODAY = "2024-03-14"
const YESTERDAY = "2024-03-13"
const at = (day: string): DateTime.Utc => DateTime.makeUnsafe(`${day}T12:00:00Z`)
const SINCE_2019: FeedStart = { cursor: null, since: at("2019-07-01") }

const cursorsOf = (pages: ReadonlyArray<FeedPage>) =>
  pages.map((p) => (p.cursor === null ? null : JSON.parse(p.cursor)))

/** RSS pages by number (1-based); past the end: an empty feed. Records the query of every request. */
const rssServer = (pages: ReadonlyArray<string>) => {
  const queries: Array<URLSearchParams> = []
  server.use(
    http.get(RSS, ({ request }) => {
      const query = new URL(request.url).searchParams
      queries.push(query)
      return xmlReply(pages[Number(query.get("pageNumber")) - 1] ?? rss())
    })
  )
  return queries
}
const PAGE_1 = rss(item("0373100034920000012", "04.07.2019"), item("0111200004623000009", "05.07.2019"))
const PAGE_2 = rss(item("206520000011900119", "06.07.2019"))

describe("EIS feed, public RSS (no token)", () => {
  it.effect("reads pages until an empty one, with the latest update date as cursor", () =>
    Effect.gen(function* () {
      const queries = rssServer([PAGE_1, PAGE_2])
      const { pages, error } = yield* runToEnd(feed(), SINCE_2019)
      assert.isNull(error)
      assert.deepStrictEqual(cursorsOf(pages), [
        { mode: "rss", updatedFrom: "2019-07-05" },
        { mode: "rss", updatedFrom: "2019-07-06" }
      ])
      assert.deepStrictEqual(
        pages.map((p) => p.results[0]?.notices.map((n) => n.procedureKey)),
        [["0373100034920000012", "0111200004623000009"], ["206520000011900119"]]
      )
      assert.deepStrictEqual(
        queries.map((q) => q.get("pageNumber")),
        ["1", "2", "3"]
      )
      const q = queries[0]
      assert.deepStrictEqual(
        [q?.get("fz44"), q?.get("fz223"), q?.get("sortBy"), q?.get("recordsPerPage"), q?.get("updateDateFrom")],
        ["on", "on", "UPDATE_DATE", "_50", "01.07.2019"]
      )
    })
  )

  it.effect("resumes from its cursor, stops at rssPages and starts requests minIntervalMs apart", () =>
    Effect.gen(function* () {
      const queries = rssServer([PAGE_2, PAGE_2, PAGE_2])
      const run = yield* startRun(feed({ rssPages: 2, minIntervalMs: 150 }), {
        cursor: JSON.stringify({ mode: "rss", updatedFrom: "2019-07-06" }),
        since: null
      })
      yield* eventually(() => run.pages.length === 1, "the first page is emitted")
      yield* TestClock.adjust("149 millis")
      yield* settle
      assert.strictEqual(queries.length, 1)
      yield* TestClock.adjust("1 millis")
      const { pages } = yield* finished(run)
      assert.deepStrictEqual(
        queries.map((q) => [q.get("pageNumber"), q.get("updateDateFrom")]),
        [
          ["1", "06.07.2019"],
          ["2", "06.07.2019"]
        ]
      )
      assert.deepStrictEqual(cursorsOf(pages), [
        { mode: "rss", updatedFrom: "2019-07-06" },
        { mode: "rss", updatedFrom: "2019-07-06" }
      ])
    })
  )

  it.effect("waits out a 429's Retry-After on the clock, and retries 503", () =>
    Effect.gen(function* () {
      const statuses = [429, 503]
      let calls = 0
      server.use(
        http.get(RSS, ({ request }) => {
          calls++
          const status = statuses.shift()
          if (status !== undefined) return xmlReply("busy", status, status === 429 ? { "Retry-After": "1" } : {})
          return xmlReply(new URL(request.url).searchParams.get("pageNumber") === "1" ? PAGE_2 : rss())
        })
      )
      const run = yield* startRun(feed(), SINCE_2019)
      yield* eventually(() => calls === 1, "the first request")
      yield* settle
      yield* TestClock.adjust("999 millis")
      yield* settle
      assert.strictEqual(calls, 1)
      yield* TestClock.adjust("1 millis")
      const { pages, error } = yield* finished(run)
      assert.isNull(error)
      assert.strictEqual(pages.length, 1)
      assert.strictEqual(calls, 4)
    })
  )

  it.effect("fails at once when Retry-After exceeds maxRetryAfterSeconds", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(RSS, () => (calls++, xmlReply("slow down", 429, { "Retry-After": "3600" }))))
      const { pages, error } = yield* runToEnd(feed(), SINCE_2019)
      assert.strictEqual(calls, 1)
      assert.strictEqual(pages.length, 0)
      assert.strictEqual(error?._tag, "SourceUnavailable")
      assert.include(error?.message, "RSS page 1: HTTP 429, Retry-After 3600 s: more than the 5 s the feed waits")
    })
  )

  it.effect("retries a request that times out, and gives up after maxAttempts timeouts", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(
        http.get(RSS, () => {
          calls++
          return calls === 1 || calls >= 3 ? new Promise<Response>(() => undefined) : xmlReply(PAGE_2)
        })
      )
      const run = yield* startRun(feed({ requestTimeoutMs: 150, maxAttempts: 2 }), SINCE_2019)
      yield* eventually(() => calls === 1, "the first request")
      yield* TestClock.adjust("149 millis")
      yield* settle
      assert.strictEqual(calls, 1)
      yield* TestClock.adjust("1 millis")
      yield* eventually(() => calls === 3, "the request of page 2")
      yield* TestClock.adjust("150 millis")
      yield* eventually(() => calls === 4, "the retry of page 2")
      yield* TestClock.adjust("150 millis")
      const { pages, error } = yield* finished(run)
      assert.strictEqual(pages.length, 1)
      assert.strictEqual(error?.message, "RSS page 2: no complete answer within 150 ms (gave up after 2 attempts)")
    })
  )

  it.effect("retries garbage XML, then fails after emitting the good pages", () =>
    Effect.gen(function* () {
      const queries = rssServer([PAGE_1, "<rss><channel><item><title>cut"])
      const { pages, error } = yield* runToEnd(feed(), SINCE_2019)
      assert.strictEqual(pages.length, 1)
      assert.deepStrictEqual(cursorsOf(pages), [{ mode: "rss", updatedFrom: "2019-07-05" }])
      assert.strictEqual(queries.length, 4)
      assert.match(error?.message ?? "", /^RSS page 2: unreadable RSS: .*\(gave up after 3 attempts\)$/u)
    })
  )
})

describe("EIS feed, getDocsIP token service", () => {
  const tokenServer = (soapReplies: ReadonlyArray<string>, archive: Uint8Array<ArrayBuffer> = ZIP) => {
    const soapBodies: Array<string> = []
    const tokens: Array<string | null> = []
    server.use(
      http.post(SOAP, async ({ request }) => {
        tokens.push(request.headers.get("individualPerson_token"))
        soapBodies.push(await request.text())
        return xmlReply(soapReplies[soapBodies.length - 1] ?? SOAP_EMPTY)
      }),
      http.get(
        ARCHIVE_1,
        ({ request }) => (tokens.push(request.headers.get("individualPerson_token")), zipReply(archive))
      ),
      http.get(ARCHIVE_2, () => zipReply(zip([])))
    )
    return { soapBodies, tokens }
  }
  const TWO_TYPES: Partial<EisFeedConfig> = {
    token: TOKEN,
    regions: ["77"],
    documentTypes: ["epNotificationEF2020", "epNotificationCancel"]
  }

  it.effect("posts one SOAP request per region × type × day and parses every XML of the archives", () =>
    Effect.gen(function* () {
      const { soapBodies, tokens } = tokenServer([SOAP_TWO, SOAP_EMPTY])
      const { pages, error } = yield* runToEnd(feed(TWO_TYPES), { cursor: null, since: at(TODAY) })
      assert.isNull(error)
      assert.deepStrictEqual(cursorsOf(pages), [
        { mode: "token", day: TODAY, region: "77", documentType: "epNotificationEF2020" },
        { mode: "token", day: TODAY, region: null, documentType: null }
      ])
      assert.deepStrictEqual(
        pages[0]?.results.map((r) => [r.notices.map((n) => `${n.kind}:${n.procedureKey}`), r.rejected]),
        [
          [["original:0111200004623000009"], []],
          [["cancellation:0101500000623000049"], []]
        ]
      )
      assert.deepStrictEqual(pages[1]?.results, [])
      assert.deepStrictEqual(tokens, [TOKEN, TOKEN, TOKEN])
      const body = soapBodies[0] ?? ""
      assert.include(body, `<individualPerson_token>${TOKEN}</individualPerson_token>`)
      assert.match(
        body,
        inOrder(
          "<ws:getDocsByOrgRegionRequest>",
          "<index>",
          "<id>[0-9a-f-]{36}</id>",
          "<createDateTime>2024-03-14T12:00:00</createDateTime>",
          "<mode>PROD</mode>"
        )
      )
      assert.match(
        body,
        inOrder(
          "<selectionParams>",
          "<orgRegion>77</orgRegion>",
          "<subsystemType>PRIZ</subsystemType>",
          "<documentType44>epNotificationEF2020</documentType44>",
          "<periodInfo>",
          `<exactDate>${TODAY}</exactDate>`
        )
      )
      assert.include(soapBodies[1], "<documentType44>epNotificationCancel</documentType44>")
    })
  )

  it.effect("resumes after the last completed unit; a finished past day moves the cursor to the next day", () =>
    Effect.gen(function* () {
      const { soapBodies } = tokenServer([])
      const cursor = JSON.stringify({
        mode: "token",
        day: YESTERDAY,
        region: "77",
        documentType: "epNotificationEF2020"
      })
      const { pages } = yield* runToEnd(feed(TWO_TYPES), { cursor, since: null })
      assert.deepStrictEqual(
        soapBodies.map(
          (b) => /<exactDate>(.*)<\/exactDate>.*/su.exec(b)?.[1] + ":" + /<documentType44>(\w+)/u.exec(b)?.[1]
        ),
        [`${YESTERDAY}:epNotificationCancel`, `${TODAY}:epNotificationEF2020`, `${TODAY}:epNotificationCancel`]
      )
      assert.deepStrictEqual(
        cursorsOf(pages).map((c) => [c.day, c.documentType]),
        [
          [TODAY, null],
          [TODAY, "epNotificationEF2020"],
          [TODAY, null]
        ]
      )
    })
  )

  it.effect("retries a truncated ZIP, then fails after emitting the good pages", () =>
    Effect.gen(function* () {
      tokenServer([SOAP_EMPTY, SOAP_TWO], new Uint8Array(ZIP.subarray(0, ZIP.length - 40)))
      const { pages, error } = yield* runToEnd(feed(TWO_TYPES), { cursor: null, since: at(TODAY) })
      assert.strictEqual(pages.length, 1)
      assert.match(
        error?.message ?? "",
        /^archive https:\/\/int44.*77_notices_1\.zip\S*: .*(truncated|ZIP).*\(gave up after 3 attempts\)$/u
      )
    })
  )

  it.effect("fails at once with the SOAP fault message", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.post(SOAP, () => (calls++, xmlReply(SOAP_FAULT, 500))))
      const { pages, error } = yield* runToEnd(feed(TWO_TYPES), { cursor: null, since: at(TODAY) })
      assert.strictEqual(calls, 1)
      assert.strictEqual(pages.length, 0)
      assert.include(error?.message, "SOAP fault: 28: Ошибка валидации запроса по схеме интеграции")
    })
  )
})

describe("feedZip", () => {
  it("reads stored and deflated entries and rejects damaged archives", () => {
    const read = readZip(ZIP)
    assert.isTrue(Result.isSuccess(read))
    if (Result.isSuccess(read))
      assert.deepStrictEqual(
        read.success.map((e) => [e.name, e.data.length]),
        [
          ["epNotificationEF2020_0111200004623000009_1.xml", Buffer.byteLength(V1)],
          ["epNotificationCancel.xml", Buffer.byteLength(CANCEL)],
          ["epNotificationCancel.xml.sig", 9]
        ]
      )
    const corrupt = new Uint8Array(ZIP)
    corrupt[100] = (corrupt[100] ?? 0) ^ 0xff
    for (const bad of [
      ZIP.subarray(0, 100),
      ZIP.subarray(0, ZIP.length - 30),
      corrupt,
      new TextEncoder().encode("<html>blocked</html>")
    ]) {
      assert.isTrue(Result.isFailure(readZip(bad)))
    }
  })
})
