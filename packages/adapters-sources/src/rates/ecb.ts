import { ecbCurrencies, type RatePublication } from "@tenders/core"
import { Result, Schema } from "effect"
import { readRatesXml } from "./xml.ts"

const Rate = Schema.Struct({ "@currency": Schema.String, "@rate": Schema.String })
const Day = Schema.Struct({ "@time": Schema.String, Cube: Schema.optionalKey(Schema.Array(Rate)) })
const Envelope = Schema.Struct({
  Envelope: Schema.Struct({
    Sender: Schema.Struct({ name: Schema.Literal("European Central Bank") }),
    Cube: Schema.Tuple([Schema.Struct({ Cube: Schema.Array(Day) })])
  })
})
const decodeEnvelope = Schema.decodeUnknownResult(Envelope)

const day = /^\d{4}-\d{2}-\d{2}$/u
const rate = /^\d+(\.\d+)?$/u

/**
 * The ECB's euro foreign exchange reference rates (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
 * `eurofxref-hist.xml`): one publication per day, with the spec's currencies it gives (units per 1 EUR as
 * published). Refused: another document, a day or rate that is not one, a day without any of the spec's currencies.
 */
export const parseEcbRates = (xml: string): Result.Result<ReadonlyArray<RatePublication>, string> =>
  Result.flatMap(readRatesXml(xml), (parsed) =>
    Result.flatMap(
      Result.mapError(decodeEnvelope(parsed), () => "not the ECB's euro reference rates (gesmes:Envelope of Cubes)"),
      (envelope) => {
        const publications: Array<RatePublication> = []
        for (const published of envelope.Envelope.Cube[0].Cube) {
          if (!day.test(published["@time"])) return Result.fail(`ECB: "${published["@time"]}" is not a day`)
          const rates = published.Cube ?? []
          const perEur: Array<RatePublication["perEur"][number]> = []
          for (const currency of ecbCurrencies) {
            const found = rates.find((r) => r["@currency"] === currency)
            if (found === undefined) continue
            if (!rate.test(found["@rate"])) {
              return Result.fail(`ECB ${published["@time"]}: ${currency} rate "${found["@rate"]}" is not a decimal`)
            }
            perEur.push({ currency, perEur: found["@rate"] })
          }
          if (perEur.length === 0) {
            return Result.fail(`ECB ${published["@time"]}: none of ${ecbCurrencies.join(", ")} is published`)
          }
          publications.push({ publisher: "ECB", publishedOn: published["@time"], perEur })
        }
        if (publications.length === 0) return Result.fail("ECB: the document has no day of rates")
        return Result.succeed(publications)
      }
    )
  )
