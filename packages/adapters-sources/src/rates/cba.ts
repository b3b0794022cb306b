import { nationalCurrencies, nationalPerEur, type RatePublication } from "@tenders/core"
import { Option, Predicate, Result, Schema } from "effect"
import { readRatesXml } from "./xml.ts"

const Rate = Schema.Struct({ ISO: Schema.String, Amount: Schema.String, Rate: Schema.String })
const ByDate = Schema.Struct({ CurrentDate: Schema.String, Rates: Schema.Struct({ ExchangeRate: Schema.Array(Rate) }) })
const decodeByDate = Schema.decodeUnknownResult(ByDate)

const isoDay = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?$/u

/** `ExchangeRatesByDateResult`, the root of a saved result or inside the service's SOAP envelope. */
const resultOf = (parsed: Record<string, unknown>): unknown => {
  if ("ExchangeRatesByDateResult" in parsed) return parsed["ExchangeRatesByDateResult"]
  const body = Predicate.isObject(parsed["Envelope"]) ? parsed["Envelope"]["Body"] : undefined
  const response = Predicate.isObject(body) ? body["ExchangeRatesByDateResponse"] : undefined
  return Predicate.isObject(response) ? response["ExchangeRatesByDateResult"] : undefined
}

/**
 * The Central Bank of Armenia's rates of a day (`api.cba.am/exchangerates.asmx`, `ExchangeRatesByDate`: drams per
 * `Amount` units) as one publication of AMD per 1 EUR, from its own EUR quote. Refused: another document, a date
 * that is not one, no EUR quote, or one that gives no exact decimal.
 */
export const parseCbaRates = (xml: string): Result.Result<RatePublication, string> =>
  Result.flatMap(readRatesXml(xml), (parsed) =>
    Result.flatMap(
      Result.mapError(
        decodeByDate(resultOf(parsed)),
        () => "not the Central Bank of Armenia's rates (ExchangeRatesByDateResult)"
      ),
      (result) => {
        const publishedOn = isoDay.exec(result.CurrentDate)?.[1]
        if (publishedOn === undefined) {
          return Result.fail(`Central Bank of Armenia: "${result.CurrentDate}" is not a date`)
        }
        const eur = result.Rates.ExchangeRate.find((r) => r.ISO === "EUR")
        if (eur === undefined)
          return Result.fail(`Central Bank of Armenia ${publishedOn}: no EUR rate, so no AMD per EUR`)
        const perEur = nationalPerEur(eur.Rate, eur.Amount)
        if (Option.isNone(perEur)) {
          return Result.fail(
            `Central Bank of Armenia ${publishedOn}: EUR "${eur.Rate}" per ${eur.Amount} is not a usable rate`
          )
        }
        return Result.succeed({
          publisher: "CBA",
          publishedOn,
          perEur: [{ currency: nationalCurrencies.CBA, perEur: perEur.value }]
        })
      }
    )
  )
