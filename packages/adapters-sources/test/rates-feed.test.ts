import { RatesUnavailable } from "@tenders/core"
import { afterAll, afterEach, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, References, Result } from "effect"
import { FetchHttpClient } from "effect/http"
import { http, HttpResponse } from "msw"
import { setupServer } from "msw/node"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { makeRatesFeed, type RatesFeedConfig } from "../src/rates/Feed.ts"

// Real published payloads (their repositories in rates.test.ts); a national bank's date is moved where a test
// needs a publication of another day.
const fixture = (name: string): Buffer => readFileSync(join(import.meta.dirname, "fixtures", "rates", name))
const ecb90 = fixture("ecb-eurofxref-hist-90d-2017-03-03.xml")
const ecbDaily = fixture("ecb-eurofxref-daily-2025-05-09.xml")
const cbrOn = (ddmmyyyy: string): Buffer =>
  Buffer.from(
    fixture("cbr-xml-daily-2022-03-15.xml").toString("latin1").replace(`Date="15.03.2022"`, `Date="${ddmmyyyy}"`),
    "latin1"
  )
const cbaOn = (day: string): string =>
  fixture("cba-exchange-rates-by-date-2023-10-02.xml")
    .toString("utf8")
    .replace("<CurrentDate>2023-10-02T00:00:00</CurrentDate>", `<CurrentDate>${day}T00:00:00</CurrentDate>`)

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const instant: Partial<RatesFeedConfig> = {
  ecbBaseUrl: "http://ecb.test/eurofxref",
  cbrUrl: "http://cbr.test/scripts/XML_daily.asp",
  cbaUrl: "http://cba.test/exchangerates.asmx",
  minIntervalMs: 0,
  backoffBaseMs: 0,
  maxBackoffMs: 0,
  maxAttempts: 1
}
const xml = (body: string | Buffer, status = 200) =>
  new HttpResponse(typeof body === "string" ? body : new Uint8Array(body), {
    status,
    headers: { "content-type": "text/xml" }
  })

/** The three publishers; CBR and CBA publish their first rates of 2017 on 2017-01-03 and are asked day by day. */
const publishers = (calls: Array<string>, ecbHist90d: Buffer = ecb90) =>
  server.use(
    http.get("http://ecb.test/eurofxref/:file", ({ params }) => {
      calls.push(`ECB ${String(params["file"])}`)
      return params["file"] === "eurofxref-hist-90d.xml" ? xml(ecbHist90d) : xml(ecb90)
    }),
    http.get("http://cbr.test/scripts/XML_daily.asp", ({ request }) => {
      const asked = new URL(request.url).searchParams.get("date_req") ?? ""
      calls.push(`CBR ${asked}`)
      return xml(cbrOn(asked === "01/01/2017" || asked === "02/01/2017" ? "31.12.2016" : "03.01.2017"))
    }),
    http.post("http://cba.test/exchangerates.asmx", async ({ request }) => {
      const body = await request.text()
      const asked = /<date>(\d{4}-\d{2}-\d{2})T/u.exec(body)?.[1] ?? ""
      calls.push(`CBA ${asked} ${request.headers.get("soapaction") ?? ""}`)
      return xml(cbaOn(asked < "2017-01-03" ? "2016-12-30" : asked))
    })
  )

const fetchQuarter = (quarter: string, config: Partial<RatesFeedConfig> = {}) =>
  Effect.gen(function* () {
    const feed = yield* makeRatesFeed({ ...instant, ...config })
    return yield* Effect.result(feed.fetchQuarter(quarter))
  }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(References.MinimumLogLevel, "Error"))

describe("makeRatesFeed", () => {
  it.effect(
    "fetches each publisher's publications of the quarter, the national banks day by day until dated in it",
    () =>
      Effect.gen(function* () {
        const calls: Array<string> = []
        publishers(calls)
        const fetched = Result.getOrThrow(yield* fetchQuarter("2017-Q1"))
        assert.deepStrictEqual(fetched.failures, [])
        assert.deepStrictEqual(
          calls.filter((c) => c.startsWith("CBR")),
          ["CBR 01/01/2017", "CBR 02/01/2017", "CBR 03/01/2017"]
        )
        assert.deepStrictEqual(
          calls.filter((c) => c.startsWith("CBA")),
          [
            `CBA 2017-01-01 "http://www.cba.am/ExchangeRatesByDate"`,
            `CBA 2017-01-02 "http://www.cba.am/ExchangeRatesByDate"`,
            `CBA 2017-01-03 "http://www.cba.am/ExchangeRatesByDate"`
          ]
        )
        assert.deepStrictEqual(
          calls.filter((c) => c.startsWith("ECB")),
          ["ECB eurofxref-hist-90d.xml"]
        )
        const cbr = fetched.publications.find((p) => p.publisher === "CBR")
        assert.deepStrictEqual(cbr, {
          publisher: "CBR",
          publishedOn: "2017-01-03",
          perEur: [{ currency: "RUB", perEur: "127.2343" }]
        })
        assert.strictEqual(fetched.origins.CBR, "http://cbr.test/scripts/XML_daily.asp?date_req=03/01/2017")
        assert.strictEqual(fetched.origins.ECB, "http://ecb.test/eurofxref/eurofxref-hist-90d.xml")
        assert.isTrue(fetched.publications.some((p) => p.publisher === "ECB" && p.publishedOn === "2017-01-02"))
      })
  )

  it.effect("reads the ECB's whole history when the last 90 days do not reach back to the quarter", () =>
    Effect.gen(function* () {
      const calls: Array<string> = []
      publishers(calls, ecbDaily)
      const fetched = Result.getOrThrow(yield* fetchQuarter("2017-Q1"))
      assert.deepStrictEqual(
        calls.filter((c) => c.startsWith("ECB")),
        ["ECB eurofxref-hist-90d.xml", "ECB eurofxref-hist.xml"]
      )
      assert.strictEqual(fetched.origins.ECB, "http://ecb.test/eurofxref/eurofxref-hist.xml")
    })
  )

  it.effect("keeps the publishers that answered and names the one that failed; fails when none answered", () =>
    Effect.gen(function* () {
      const calls: Array<string> = []
      publishers(calls)
      server.use(http.post("http://cba.test/exchangerates.asmx", () => xml("<html>down</html>", 404)))
      const partial = Result.getOrThrow(yield* fetchQuarter("2017-Q1"))
      assert.deepStrictEqual(
        partial.publications.map((p) => p.publisher).filter((p, i, all) => all.indexOf(p) === i),
        ["ECB", "CBR"]
      )
      assert.strictEqual(partial.failures?.length, 1)
      assert.include(partial.failures?.[0], "CBA ExchangeRatesByDate 2017-01-01: HTTP 404")
      server.use(
        http.get("http://ecb.test/eurofxref/:file", () => xml("", 404)),
        http.get("http://cbr.test/scripts/XML_daily.asp", () => xml("<rss/>"))
      )
      const none = yield* fetchQuarter("2017-Q1")
      assert.isTrue(Result.isFailure(none))
      const error = Result.isFailure(none) ? none.failure : undefined
      assert.instanceOf(error, RatesUnavailable)
      assert.include(error?.message, "not the Bank of Russia's daily rates")
    })
  )
})
