import {
  dayOf,
  publicationOfQuarter,
  quarterFirstDay,
  type RatePublication,
  type RatePublisher,
  type RatesFeed,
  type RatesFetch,
  RatesUnavailable
} from "@tenders/core"
import { DateTime, Effect, Option, Result } from "effect"
import { HttpClientRequest } from "effect/http"
import { fatal, type Reply, statusFailure } from "../http/AttemptFailure.ts"
import { makePolicyFetch } from "../http/FeedHttp.ts"
import { defaultFeedHttpPolicy, type FeedHttpPolicy } from "../http/FeedHttpPolicy.ts"
import { parseCbaRates } from "./cba.ts"
import { parseCbrRates } from "./cbr.ts"
import { parseEcbRates } from "./ecb.ts"
import { xmlText } from "./xml.ts"

/** Where the publishers publish, and how far past a quarter's first day a national bank's publication is sought. */
export interface RatesFeedConfig extends FeedHttpPolicy {
  /** Default `https://www.ecb.europa.eu/stats/eurofxref`. */
  readonly ecbBaseUrl: string
  /** Default `https://www.cbr.ru/scripts/XML_daily.asp`. */
  readonly cbrUrl: string
  /** Default `https://api.cba.am/exchangerates.asmx`. */
  readonly cbaUrl: string
  /** Days after the quarter's first day asked for a first publication (Russia's New Year holidays last ten days). */
  readonly searchDays: number
}

/** The defaults of {@link RatesFeedConfig}, with the feeds' one HTTP policy. */
export const defaultRatesFeedConfig: RatesFeedConfig = {
  ...defaultFeedHttpPolicy,
  ecbBaseUrl: "https://www.ecb.europa.eu/stats/eurofxref",
  cbrUrl: "https://www.cbr.ru/scripts/XML_daily.asp",
  cbaUrl: "https://api.cba.am/exchangerates.asmx",
  searchDays: 15
}

/** A reply's document parsed by `parse`; an error status or a document that is not the publisher's stops at once. */
const reading =
  <A>(parse: (xml: string) => Result.Result<A, string>) =>
  (reply: Reply) => {
    const byStatus = statusFailure(reply)
    if (byStatus !== undefined) return Result.fail(byStatus)
    return Result.mapError(Result.flatMap(xmlText(reply.body), parse), fatal)
  }

const dayAfter = (day: string, days: number): string =>
  dayOf(DateTime.add(DateTime.makeUnsafe(`${day}T00:00:00Z`), { days }))

const russianDate = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`

const cbaEnvelope = (day: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
  `<soap:Body><ExchangeRatesByDate xmlns="http://www.cba.am/"><date>${day}T00:00:00</date></ExchangeRatesByDate>` +
  `</soap:Body></soap:Envelope>`

/** One publisher's publications for a quarter, and the URL they came from. */
interface Fetched {
  readonly publisher: RatePublisher
  readonly publications: ReadonlyArray<RatePublication>
  readonly origin: string
}

/**
 * The three publishers as a {@link RatesFeed}, asked side by side, every request through the feeds' one HTTP policy
 * (its pacing shared by the three): the ECB's last 90 days (its whole history for an older quarter), and the Bank of
 * Russia's and the Central Bank of Armenia's publications day by day from the quarter's first day until the first
 * dated on or after it. A publisher that
 * fails is named in `failures` and the others are kept; the fetch fails only when none answered.
 */
export const makeRatesFeed = Effect.fn("makeRatesFeed")(function* (config: Partial<RatesFeedConfig> = {}) {
  const settings: RatesFeedConfig = { ...defaultRatesFeedConfig, ...config }
  const fetch = yield* makePolicyFetch("rates", settings, (message) => new RatesUnavailable({ message }))

  const ecb = Effect.fn("rates.ecb")(function* (quarter: string) {
    const base = settings.ecbBaseUrl.replace(/\/+$/u, "")
    for (const file of ["eurofxref-hist-90d.xml", "eurofxref-hist.xml"]) {
      const url = `${base}/${file}`
      const publications = yield* fetch(`ECB GET ${url}`, HttpClientRequest.get(url), reading(parseEcbRates))
      if (Option.isSome(publicationOfQuarter(publications, quarter))) {
        return { publisher: "ECB", publications, origin: url } satisfies Fetched
      }
    }
    return yield* new RatesUnavailable({ message: `ECB: no publication of ${quarter} yet` })
  })

  /** A national bank's publications from the quarter's first day on, until one is dated on or after it. */
  const dayByDay = Effect.fn("rates.dayByDay")(function* (
    publisher: RatePublisher,
    quarter: string,
    ask: (
      day: string
    ) => Effect.Effect<{ readonly publication: RatePublication; readonly url: string }, RatesUnavailable>
  ) {
    const first = quarterFirstDay(quarter)
    for (let offset = 0; offset < settings.searchDays; offset++) {
      const { publication, url } = yield* ask(dayAfter(first, offset))
      if (publication.publishedOn >= first)
        return { publisher, publications: [publication], origin: url } satisfies Fetched
    }
    return yield* new RatesUnavailable({
      message: `${publisher}: no publication dated in the ${settings.searchDays} days from ${first}`
    })
  })

  const cbr = (day: string) => {
    const url = `${settings.cbrUrl}?date_req=${russianDate(day)}`
    return Effect.map(fetch(`CBR GET ${url}`, HttpClientRequest.get(url), reading(parseCbrRates)), (publication) => ({
      publication,
      url
    }))
  }

  const cba = (day: string) => {
    const request = HttpClientRequest.post(settings.cbaUrl).pipe(
      HttpClientRequest.setHeader("SOAPAction", `"http://www.cba.am/ExchangeRatesByDate"`),
      HttpClientRequest.bodyText(cbaEnvelope(day), "text/xml; charset=utf-8")
    )
    return Effect.map(fetch(`CBA ExchangeRatesByDate ${day}`, request, reading(parseCbaRates)), (publication) => ({
      publication,
      url: `${settings.cbaUrl} ExchangeRatesByDate ${day}`
    }))
  }

  const fetchQuarter = (quarter: string) =>
    Effect.gen(function* () {
      const each: ReadonlyArray<Effect.Effect<Fetched, RatesUnavailable>> = [
        ecb(quarter),
        dayByDay("CBR", quarter, cbr),
        dayByDay("CBA", quarter, cba)
      ]
      const results = yield* Effect.all(
        each.map((one) => Effect.result(one)),
        { concurrency: "unbounded" }
      )
      const got = results.flatMap((r) => (Result.isSuccess(r) ? [r.success] : []))
      const failures = results.flatMap((r) => (Result.isFailure(r) ? [r.failure.message] : []))
      if (got.length === 0) return yield* new RatesUnavailable({ message: failures.join("; ") })
      const fetched: RatesFetch = {
        publications: got.flatMap((g) => g.publications),
        origins: Object.fromEntries(got.map((g) => [g.publisher, g.origin])),
        failures
      }
      return fetched
    })

  const feed: RatesFeed = { fetchQuarter }
  return feed
})
