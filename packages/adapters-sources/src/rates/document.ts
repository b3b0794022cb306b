import type { RatePublication, RatePublisher } from "@tenders/core"
import { Result } from "effect"
import { parseCbaRates } from "./cba.ts"
import { parseCbrRates } from "./cbr.ts"
import { parseEcbRates } from "./ecb.ts"
import { xmlText } from "./xml.ts"

/** A saved publication read by its content: whose it is and what it publishes. */
export interface RatesDocument {
  readonly publisher: RatePublisher
  readonly publications: ReadonlyArray<RatePublication>
}

/**
 * Reads a saved copy of a publisher's document, the publisher told by the content (not the file name): the ECB's
 * `gesmes:Envelope`, the Bank of Russia's `ValCurs`, the Central Bank of Armenia's `ExchangeRatesByDateResult`.
 */
export const parseRatesDocument = (bytes: Uint8Array): Result.Result<RatesDocument, string> =>
  Result.flatMap(xmlText(bytes), (text) => {
    if (/<(\w+:)?Envelope[\s>][\s\S]*eurofxref/u.test(text.slice(0, 2000))) {
      return Result.map(parseEcbRates(text), (publications): RatesDocument => ({ publisher: "ECB", publications }))
    }
    if (/<ValCurs[\s>]/u.test(text)) {
      return Result.map(parseCbrRates(text), (p): RatesDocument => ({ publisher: "CBR", publications: [p] }))
    }
    if (/<(\w+:)?ExchangeRatesByDateResult[\s>]/u.test(text)) {
      return Result.map(parseCbaRates(text), (p): RatesDocument => ({ publisher: "CBA", publications: [p] }))
    }
    return Result.fail(
      "not a publication of the ECB (eurofxref), the Bank of Russia (XML_daily) or the Central Bank of Armenia " +
        "(ExchangeRatesByDate)"
    )
  })
