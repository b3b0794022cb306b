import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseCbaRates } from "../src/rates/cba.ts"
import { parseCbrRates } from "../src/rates/cbr.ts"
import { parseRatesDocument } from "../src/rates/document.ts"
import { parseEcbRates } from "../src/rates/ecb.ts"

/*
 * Real published payloads, copied from public repositories:
 * - ecb-eurofxref-daily-2025-05-09.xml: github.com/xpt-nl/ecb, eurofxref-daily.xml
 *   at 202f7b70570996e5ed83c899319032d3570728ec
 * - ecb-eurofxref-hist-90d-2017-03-03.xml: github.com/daturaman/fx_rates, eurofxref-hist-90d.xml
 *   at e05bac4c845bf05837d67ef1a81756a40738956b
 * - cbr-xml-daily-2022-03-15.xml (windows-1251): github.com/Mirek777/cbrXMLdaily, XML_daily.xml
 *   at a20248f8c8709bbe351949eaeb7979fe48a25763
 * - cba-exchange-rates-by-date-2023-10-02.xml: github.com/vlivyur/ExchangeRatesByDate, 20231002.xml
 *   at 3ac6ce9eb50001920f48dcf9c1f351a5023a450b (the service's ExchangeRatesByDateResult, saved without the SOAP
 *   envelope)
 */
const bytes = (name: string): Uint8Array => readFileSync(join(import.meta.dirname, "fixtures", "rates", name))
const text = (name: string): string => new TextDecoder("utf-8").decode(bytes(name))
const rateOf = (p: { readonly perEur: ReadonlyArray<{ currency: string; perEur: string }> }, currency: string) =>
  p.perEur.find((r) => r.currency === currency)?.perEur
const failure = <A>(result: Result.Result<A, string>): string => (Result.isFailure(result) ? result.failure : "")

describe("ECB euro reference rates", () => {
  it("reads the daily file: its day and every spec currency the ECB publishes, as published", () => {
    const [day, ...more] = Result.getOrThrow(parseEcbRates(text("ecb-eurofxref-daily-2025-05-09.xml")))
    assert.strictEqual(more.length, 0)
    assert.strictEqual(day?.publishedOn, "2025-05-09")
    assert.deepStrictEqual(
      day?.perEur.map((r) => r.currency),
      ["USD", "GBP", "CHF", "NOK", "ISK", "SEK", "DKK", "PLN", "CZK", "HUF", "RON"]
    )
    assert.strictEqual(day && rateOf(day, "USD"), "1.1252")
    assert.strictEqual(day && rateOf(day, "CZK"), "24.946")
    assert.isUndefined(day && rateOf(day, "BGN"))
  })

  it("reads every day of the 90-day history; a currency the ECB did not publish then (ISK in 2017) is absent", () => {
    const days = Result.getOrThrow(parseEcbRates(text("ecb-eurofxref-hist-90d-2017-03-03.xml")))
    assert.strictEqual(days[0]?.publishedOn, "2017-03-03")
    assert.strictEqual(days.at(-1)?.publishedOn, "2016-12-05")
    const firstOfQ1 = days.find((d) => d.publishedOn === "2017-01-02")
    assert.strictEqual(firstOfQ1 && rateOf(firstOfQ1, "USD"), "1.0465")
    assert.isUndefined(firstOfQ1 && rateOf(firstOfQ1, "ISK"))
  })

  it("refuses another document and a day without the spec's currencies, saying why", () => {
    assert.include(failure(parseEcbRates(text("cbr-xml-daily-2022-03-15.xml"))), "not the ECB's euro reference rates")
    const noSpecCurrency = text("ecb-eurofxref-daily-2025-05-09.xml").replace(
      /<Cube currency='(USD|GBP|CHF|NOK|ISK|SEK|DKK|PLN|CZK|HUF|RON)' rate='[^']*'\/>/gu,
      ""
    )
    assert.include(failure(parseEcbRates(noSpecCurrency)), "ECB 2025-05-09: none of USD, GBP")
    const badRate = text("ecb-eurofxref-daily-2025-05-09.xml").replace("rate='1.1252'", "rate='1,1252'")
    assert.include(failure(parseEcbRates(badRate)), `USD rate "1,1252" is not a decimal`)
  })
})

describe("Bank of Russia daily rates", () => {
  it("reads the windows-1251 file as RUB per 1 EUR from its own EUR quote, exactly", () => {
    const document = Result.getOrThrow(parseRatesDocument(bytes("cbr-xml-daily-2022-03-15.xml")))
    assert.strictEqual(document.publisher, "CBR")
    assert.deepStrictEqual(document.publications, [
      { publisher: "CBR", publishedOn: "2022-03-15", perEur: [{ currency: "RUB", perEur: "127.2343" }] }
    ])
  })

  it("divides by the Nominal exactly, and refuses a file without EUR", () => {
    const source = new TextDecoder("windows-1251").decode(bytes("cbr-xml-daily-2022-03-15.xml"))
    const perTen = source.replace(
      "<Nominal>1</Nominal><Name>Евро</Name><Value>127,2343",
      "<Nominal>10</Nominal><Name>Евро</Name><Value>1272,343"
    )
    assert.strictEqual(rateOf(Result.getOrThrow(parseCbrRates(perTen)), "RUB"), "127.2343")
    const noEur = source.replace("<CharCode>EUR</CharCode>", "<CharCode>XEU</CharCode>")
    assert.strictEqual(failure(parseCbrRates(noEur)), "Bank of Russia 2022-03-15: no EUR rate, so no RUB per EUR")
  })
})

describe("Central Bank of Armenia rates", () => {
  it("reads ExchangeRatesByDateResult as AMD per 1 EUR, saved or inside the SOAP envelope", () => {
    const saved = Result.getOrThrow(parseCbaRates(text("cba-exchange-rates-by-date-2023-10-02.xml")))
    assert.deepStrictEqual(saved, {
      publisher: "CBA",
      publishedOn: "2023-10-02",
      perEur: [{ currency: "AMD", perEur: "423.85" }]
    })
    const inner = text("cba-exchange-rates-by-date-2023-10-02.xml").replace(/^<\?xml[^>]*>\s*/u, "")
    const soap =
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
      `<soap:Body><ExchangeRatesByDateResponse xmlns="http://www.cba.am/">${inner}</ExchangeRatesByDateResponse>` +
      `</soap:Body></soap:Envelope>`
    assert.deepStrictEqual(Result.getOrThrow(parseCbaRates(soap)), saved)
  })

  it("refuses a file without EUR and another document", () => {
    const noEur = text("cba-exchange-rates-by-date-2023-10-02.xml").replace("<ISO>EUR</ISO>", "<ISO>XEU</ISO>")
    assert.strictEqual(
      failure(parseCbaRates(noEur)),
      "Central Bank of Armenia 2023-10-02: no EUR rate, so no AMD per EUR"
    )
    assert.include(
      failure(parseCbaRates(text("ecb-eurofxref-daily-2025-05-09.xml"))),
      "not the Central Bank of Armenia's"
    )
  })
})

describe("saved copies told by their content", () => {
  it("names the publisher of each real file whatever its name, and refuses a document of none of them", () => {
    assert.strictEqual(
      Result.getOrThrow(parseRatesDocument(bytes("ecb-eurofxref-daily-2025-05-09.xml"))).publisher,
      "ECB"
    )
    assert.strictEqual(
      Result.getOrThrow(parseRatesDocument(bytes("cba-exchange-rates-by-date-2023-10-02.xml"))).publisher,
      "CBA"
    )
    const other = new TextEncoder().encode(`<?xml version="1.0"?><rss><channel/></rss>`)
    assert.include(failure(parseRatesDocument(other)), "not a publication of the ECB")
    assert.include(failure(parseRatesDocument(new TextEncoder().encode("not xml <"))), "not a publication")
  })
})
