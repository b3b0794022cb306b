import { describe, expect, it } from "@effect/vitest"
import type { FeedPage, FeedStart } from "@tenders/core"
import { DateTime, Effect } from "effect"
import type { Layer } from "effect"
import type { HttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import { setupServer } from "msw/node"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll } from "vitest"
import { gnumnerHttpClientLayer, makeGnumnerFeed } from "../src/gnumner/Feed.ts"
import type { GnumnerFeedConfig } from "../src/gnumner/Feed.ts"
import { eventually, finished, runToEnd, settle, startRun } from "./feedHarness.ts"
import { docx, invitationFixture } from "./fixtures/gnumner/invitation/docx.ts"

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/gnumner/${name}`, import.meta.url), "utf8")

const BASE = "https://gnumner.minfin.am"
const AUCTION = "elektronayin_achurdi_haytararutyun_ev_hraver"
const CHANGES = "hraverum_katarvats_popokhutyunner"
const ARMEPS_URL = "https://armeps.am/epps/cft/listContractDocuments.do?resourceId=12486627"
const EAUCTION_URL = "https://eauction.armeps.am/hy/public/tender_details/tmid/d903e27c-3159-45ae-be43-6f33a82068ba"
/** The invitation DOCX the third item of AUCTION_P1 links to. */
const DOCX_URL = `${BASE}/website/images/original/36f98164.docx`
const AUCTION_P1 = fixture("RECONSTRUCTED_listing-page_elektronayin_achurdi.html")
const CHANGES_P1 = fixture("RECONSTRUCTED_listing-page_hraverum_katarvats_popokhutyunner.html")
const EMPTY_PAGE = '<html><body><div class="content"><p>Ոչինչ չի գտնվել</p></div></body></html>'

const pageUrl = (slug: string, page: number): string => `${BASE}/hy/page/${slug}/${page === 1 ? "" : String(page)}`

/** A synthetic listing page (same DOM as the fixtures) with file links. */
const listingPage = (items: ReadonlyArray<readonly [code: string, localTime: string]>): string =>
  `<html><body>${items
    .map(
      ([code, time]) =>
        `<div class="tender"><div class="tender_title">` +
        `<p><a href="${BASE}/website/images/original/${code.replace(/\W/gu, "")}.pdf">[${code}] Գնում</a></p></div>` +
        `<div class="tender_date">` +
        `<p class="tender_time">(Հրապարակված է ${time}-ից մինչև 2026-10-30 10:00:00 ժամը ներառյալ)</p></div></div>`
    )
    .join("")}</body></html>`

const AUCTION_P2 = listingPage([
  ["ԵՔ-ԷԱՃԾՁԲ-26/90", "2026-09-20 10:00:00"],
  ["ԵՔ-ԷԱՃԾՁԲ-26/89", "2026-09-19 10:00:00"]
])
const CHANGES_P2 = listingPage([["ԵՔ-ԷԱՃԾՁԲ-26/70", "2026-09-21 10:00:00"]])

type Reply = () => Response | Promise<Response>
const html =
  (body: string): Reply =>
  () =>
    HttpResponse.html(body)
const file =
  (bytes: Uint8Array<ArrayBuffer>): Reply =>
  () =>
    new HttpResponse(bytes, {
      headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }
    })
const status =
  (code: number, headers: Record<string, string> = {}): Reply =>
  () =>
    new HttpResponse(null, { status: code, headers })
/** A server that never answers. */
const silence: Reply = () => new Promise<Response>(() => undefined)

const hits: Array<string> = []
const server = setupServer()

/** Serves `replies` in order for exactly this URL (query included); the last reply repeats. */
const route = (url: string, ...replies: ReadonlyArray<Reply>) => {
  const queue = [...replies]
  const target = new URL(url)
  return http.get(`${target.origin}${target.pathname}`, ({ request }) => {
    if (request.url !== url) return undefined
    hits.push(url)
    const reply = queue.length > 1 ? queue.shift() : queue[0]
    return reply === undefined ? undefined : reply()
  })
}

const since = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const fromScratch: FeedStart = { cursor: null, since }
/** No pacing and no backoff, so a run only waits on the clock where a test says so. */
const feed = (config: Partial<GnumnerFeedConfig>) =>
  makeGnumnerFeed({
    sections: [AUCTION],
    fetchDetails: false,
    minIntervalMs: 0,
    backoffBaseMs: 0,
    maxBackoffMs: 0,
    maxAttempts: 3,
    requestTimeoutMs: 60_000,
    ...config
  })

/** Runs the feed to its end, keeping every page emitted before a failure. */
const run = (
  config: Partial<GnumnerFeedConfig>,
  start: FeedStart = fromScratch,
  client?: Layer.Layer<HttpClient.HttpClient>
) => runToEnd(feed(config), start, client)

const codes = (page: FeedPage | undefined) =>
  page?.results.flatMap((r) => r.notices.map((n) => n.record.nativeId)) ?? []

describe("gnumner feed over HTTP (msw)", () => {
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
  afterEach(() => {
    server.resetHandlers()
    hits.length = 0
  })
  afterAll(() => server.close())

  it.effect("reads two sections of two pages, stopping at an empty page and at a 404", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), html(AUCTION_P2)),
        route(pageUrl(AUCTION, 3), html(EMPTY_PAGE)),
        route(pageUrl(CHANGES, 1), html(CHANGES_P1)),
        route(pageUrl(CHANGES, 2), html(CHANGES_P2)),
        route(pageUrl(CHANGES, 3), status(404))
      )
      const { pages, error } = yield* run({ sections: [AUCTION, CHANGES] })
      expect(error).toBeNull()
      expect(hits).toEqual([1, 2, 3].map((n) => pageUrl(AUCTION, n)).concat([1, 2, 3].map((n) => pageUrl(CHANGES, n))))
      expect(pages.map(codes)).toEqual([
        ["ԵՔ-ԷԱՃԾՁԲ-26/148", "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107", "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12"],
        ["ԵՔ-ԷԱՃԾՁԲ-26/90", "ԵՔ-ԷԱՃԾՁԲ-26/89"],
        [],
        ["ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12", "ԵՔ-ԷԱՃԱՊՁԲ-26/45"],
        ["ԵՔ-ԷԱՃԾՁԲ-26/70"],
        []
      ])
      expect(pages[3]?.results[0]?.notices.every((n) => n.kind === "amendment")).toBe(true)
      // A section's floor only moves once it is read to its end, so a failure mid-section loses nothing.
      const auctionDone = { sections: { [AUCTION]: "2026-09-25T14:59:34Z" } }
      expect(pages.map((p) => p.cursor && JSON.parse(p.cursor))).toEqual([
        { sections: {} },
        { sections: {} },
        auctionDone,
        auctionDone,
        auctionDone,
        { sections: { ...auctionDone.sections, [CHANGES]: "2026-10-06T11:02:40Z" } }
      ])
    })
  )

  it.effect("stops at the cursor's time, keeps other sections of the cursor, and reads a bad cursor as none", () =>
    Effect.gen(function* () {
      server.use(route(pageUrl(AUCTION, 1), html(AUCTION_P1)), route(pageUrl(AUCTION, 2), html(AUCTION_P2)))
      const cursor = JSON.stringify({ sections: { [AUCTION]: "2026-09-25T13:00:00Z", other: "2026-05-01T00:00:00Z" } })
      const { pages, error } = yield* run({ maxPagesPerSection: 5 }, { cursor, since: null })
      expect(error).toBeNull()
      expect(hits).toEqual([pageUrl(AUCTION, 1), pageUrl(AUCTION, 2)])
      expect(pages.map(codes)).toEqual([["ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107", "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12"], []])
      expect(JSON.parse(pages.at(-1)?.cursor ?? "null")).toEqual({
        sections: { [AUCTION]: "2026-09-25T14:59:34Z", other: "2026-05-01T00:00:00Z" }
      })
      hits.length = 0
      const again = yield* run({ maxPagesPerSection: 1 }, { cursor: "{not json", since })
      expect(again.error).toBeNull()
      expect(codes(again.pages[0])).toHaveLength(3)
    })
  )

  it.effect("follows ARMEPS / eAuction links of new items; a failing detail page is a rejection", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), status(404)),
        route(EAUCTION_URL, status(500)),
        route(DOCX_URL, status(404)),
        route(ARMEPS_URL, html(fixture("armeps-listContractDocuments-fragment-real.html")))
      )
      const { pages, error } = yield* run({ fetchDetails: true, maxAttempts: 2 })
      expect(error).toBeNull()
      expect(hits).toEqual([pageUrl(AUCTION, 1), DOCX_URL, EAUCTION_URL, EAUCTION_URL, ARMEPS_URL, pageUrl(AUCTION, 2)])
      const [listing, eauction, armeps] = pages[0]?.results ?? []
      expect(listing?.notices).toHaveLength(3)
      expect(eauction?.notices).toEqual([])
      expect(eauction?.rejected).toEqual([{ where: EAUCTION_URL, reason: expect.stringContaining("HTTP 500") }])
      expect(armeps?.rejected).toEqual([])
      expect(armeps?.notices[0]?.record).toMatchObject({
        nativeId: "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107",
        buyer: "Արաքսի համայնքապետարան",
        cpvCodes: ["44131300", "44423690"]
      })
    })
  )

  it.effect("follows an eAuction detail page", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), status(404)),
        route(EAUCTION_URL, html(fixture("eauction-tender_details-fragment-real.html"))),
        route(ARMEPS_URL, status(404)),
        route(DOCX_URL, status(404))
      )
      const { pages } = yield* run({ fetchDetails: true })
      const [, eauction, armeps] = pages[0]?.results ?? []
      expect(eauction?.notices[0]?.record.docsUrl).toEqual([
        "https://eauction.armeps.am/application/documents/public_invitation/tender_47686.zip"
      ])
      expect(armeps?.rejected[0]?.reason).toContain("not found")
    })
  )

  it.effect(
    "reads the lots of a new item's invitation DOCX; a missing or broken DOCX is a rejection, the notice stays",
    () =>
      Effect.gen(function* () {
        const serve = (invitation: Reply) =>
          server.use(
            route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
            route(pageUrl(AUCTION, 2), status(404)),
            route(DOCX_URL, invitation),
            route(EAUCTION_URL, status(404)),
            route(ARMEPS_URL, status(404))
          )
        const listed = (pages: ReadonlyArray<FeedPage>) => {
          const listing = pages[0]?.results[0]
          return { listing, item: listing?.notices.find((n) => n.record.url === DOCX_URL) }
        }
        serve(file(docx(invitationFixture("INVENTED_invitation-hy_document.xml"))))
        const read = yield* run({ fetchDetails: true })
        expect(read.error).toBeNull()
        expect(hits.slice(0, 2)).toEqual([pageUrl(AUCTION, 1), DOCX_URL])
        const { listing, item } = listed(read.pages)
        expect(listing?.rejected).toEqual([])
        expect(listing?.notices).toHaveLength(3)
        expect(item?.record).toMatchObject({ nativeId: "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12", budget: null, cpvCodes: [] })
        expect(item?.record.lots.map((lot) => lot.title)).toEqual([
          "Համակարգչային տեխնիկա",
          "Լազերային տպիչ",
          "Գրենական պիտույքներ (թուղթ A4, թղթապանակներ)"
        ])
        expect(item?.record.lots[1]).toEqual({
          title: "Լազերային տպիչ",
          budget: "1200000.5",
          currency: "AMD",
          cpvCodes: ["30232110"]
        })
        expect(listing?.notices.filter((n) => n !== item).map((n) => n.record.lots)).toEqual([[], []])

        for (const [reply, reason] of [
          [status(404), "invitation document not found (HTTP 404)"],
          [
            html("<html><body>Ֆայլը հասանելի չէ</body></html>"),
            expect.stringMatching(/^invitation document unreadable: not a DOCX file/u)
          ]
        ] as const) {
          server.resetHandlers()
          serve(reply)
          const failed = yield* run({ fetchDetails: true })
          expect(failed.error).toBeNull()
          const broken = listed(failed.pages)
          expect(broken.listing?.rejected).toEqual([{ where: DOCX_URL, reason }])
          expect(broken.listing?.notices).toHaveLength(3)
          expect(broken.item?.record.lots).toEqual([])
        }
      })
  )

  it.effect("waits out a 429's Retry-After on the clock, then reads the page", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), status(429, { "retry-after": "1" }), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), status(404))
      )
      const started = yield* startRun(feed({}), fromScratch)
      yield* eventually(() => hits.length === 1, "the first request")
      yield* settle
      yield* TestClock.adjust("999 millis")
      yield* settle
      expect(hits).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      const { pages, error } = yield* finished(started)
      expect(error).toBeNull()
      expect(hits.slice(0, 2)).toEqual([pageUrl(AUCTION, 1), pageUrl(AUCTION, 1)])
      expect(codes(pages[0])).toHaveLength(3)
    })
  )

  it.effect("fails at once on a Retry-After above the limit, after the good pages", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), status(429, { "retry-after": "3600" }))
      )
      const { pages, error } = yield* run({ maxRetryAfterSeconds: 120 })
      expect(codes(pages[0])).toHaveLength(3)
      expect(pages).toHaveLength(1)
      expect(error).toMatchObject({ _tag: "SourceUnavailable", source: "gnumner" })
      expect(error?.message).toContain("Retry-After 3600")
      expect(hits).toEqual([pageUrl(AUCTION, 1), pageUrl(AUCTION, 2)])
    })
  )

  it.effect("retries a 503, then reads the page; a lasting 503 fails after maxAttempts", () =>
    Effect.gen(function* () {
      server.use(route(pageUrl(AUCTION, 1), status(503), html(AUCTION_P1)), route(pageUrl(AUCTION, 2), status(503)))
      const { pages, error } = yield* run({ maxAttempts: 3 })
      expect(codes(pages[0])).toHaveLength(3)
      expect(hits).toEqual([pageUrl(AUCTION, 1), pageUrl(AUCTION, 1), ...Array(3).fill(pageUrl(AUCTION, 2))])
      expect(error?.message).toMatch(/HTTP 503 \(gave up after 3 attempts\)/u)
      expect(pages.map((p) => p.cursor)).toEqual(['{"sections":{}}'])
    })
  )

  it.effect("retries a request that does not answer within requestTimeoutMs", () =>
    Effect.gen(function* () {
      server.use(route(pageUrl(AUCTION, 1), silence, html(AUCTION_P1)), route(pageUrl(AUCTION, 2), silence))
      const started = yield* startRun(feed({ requestTimeoutMs: 150, maxAttempts: 2 }), fromScratch)
      yield* eventually(() => hits.length === 1, "the first request")
      yield* TestClock.adjust("149 millis")
      yield* settle
      expect(hits).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* eventually(() => hits.length === 3, "the request of page 2")
      yield* TestClock.adjust("150 millis")
      yield* eventually(() => hits.length === 4, "the retry of page 2")
      yield* TestClock.adjust("150 millis")
      const { pages, error } = yield* finished(started)
      expect(codes(pages[0])).toHaveLength(3)
      expect(error?.message).toBe(
        `GET ${pageUrl(AUCTION, 2)}: no complete answer within 150 ms (gave up after 2 attempts)`
      )
    })
  )

  it.effect("starts requests minIntervalMs apart; skips clarification sections and rejects unknown ones unread", () =>
    Effect.gen(function* () {
      server.use(
        route(pageUrl(AUCTION, 1), html(AUCTION_P1)),
        route(pageUrl(AUCTION, 2), html(AUCTION_P2)),
        route(pageUrl(AUCTION, 3), status(404))
      )
      const sections = [
        "hraveri_veraberyal_tramadrvats_parzabanumneri_masin_haytararutyun_1",
        AUCTION,
        "no_such_section"
      ]
      const started = yield* startRun(feed({ minIntervalMs: 150, sections }), fromScratch)
      yield* eventually(() => hits.length === 1, "the first request")
      for (const next of [2, 3]) {
        yield* settle
        yield* TestClock.adjust("149 millis")
        yield* settle
        expect(hits).toHaveLength(next - 1)
        yield* TestClock.adjust("1 millis")
        yield* eventually(() => hits.length === next, `request ${next}`)
      }
      const { pages, error } = yield* finished(started)
      expect(error).toBeNull()
      expect(hits).toHaveLength(3)
      expect(pages.at(-1)?.results[0]?.rejected[0]?.reason).toBe('unknown gnumner section "no_such_section"')
    })
  )

  it.effect("reads garbage HTML as a page without items", () =>
    Effect.gen(function* () {
      server.use(route(pageUrl(AUCTION, 1), html("\u0000\u0001<<<>>> %PDF-1.4 <p></b>></html><table><tr><td>")))
      const { pages, error } = yield* run({})
      expect(error).toBeNull()
      expect(pages).toEqual([])
      expect(hits).toEqual([pageUrl(AUCTION, 1)])
    })
  )
})

describe("gnumner feed TLS switch (real HTTPS server, no msw)", () => {
  let dir = ""
  let httpsServer: Server | undefined
  let origin = ""
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gnumner-tls-"))
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem")
      ],
      { stdio: "ignore" }
    )
    const tls = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }
    const started = createServer(tls, (req, res) => {
      const first = req.url === `/hy/page/${AUCTION}/`
      res.writeHead(first ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(first ? AUCTION_P1 : "")
    })
    httpsServer = started
    await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve))
    const address: AddressInfo | string | null = started.address()
    origin = typeof address === "object" && address !== null ? `https://127.0.0.1:${address.port}` : ""
  })
  afterAll(() => {
    httpsServer?.closeAllConnections()
    httpsServer?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it.effect("fails with SourceUnavailable naming the switch when the certificate is refused", () =>
    Effect.gen(function* () {
      const { pages, error } = yield* run({ baseUrl: origin, maxAttempts: 2 }, fromScratch, gnumnerHttpClientLayer([]))
      expect(pages).toEqual([])
      expect(error?.message).toContain("TLS error")
      expect(error?.message).toContain('add "127.0.0.1" to TENDERS_GNUMNER_INSECURE_TLS_HOSTS')
    })
  )

  it.effect("reads the page when the host is in insecureTlsHosts", () =>
    Effect.gen(function* () {
      const { pages, error } = yield* run(
        { baseUrl: origin, insecureTlsHosts: ["127.0.0.1"] },
        fromScratch,
        gnumnerHttpClientLayer(["127.0.0.1"])
      )
      expect(error).toBeNull()
      expect(codes(pages[0])).toEqual(["ԵՔ-ԷԱՃԾՁԲ-26/148", "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107", "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12"])
    })
  )
})
