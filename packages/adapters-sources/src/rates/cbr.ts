import { nationalCurrencies, nationalPerEur, type RatePublication } from "@tenders/core"
import { Option, Result, Schema } from "effect"
import { readRatesXml } from "./xml.ts"

const Valute = Schema.Struct({ CharCode: Schema.String, Nominal: Schema.String, Value: Schema.String })
const ValCurs = Schema.Struct({ ValCurs: Schema.Struct({ "@Date": Schema.String, Valute: Schema.Array(Valute) }) })
const decodeValCurs = Schema.decodeUnknownResult(ValCurs)

const russianDay = /^(\d{2})\.(\d{2})\.(\d{4})$/u

/**
 * The Bank of Russia's daily rates (`XML_daily.asp`: roubles per `Nominal` units, comma decimals) as one publication
 * of RUB per 1 EUR, from its own EUR quote. Refused: another document, a date that is not one, no EUR quote, or
 * one that gives no exact decimal.
 */
export const parseCbrRates = (xml: string): Result.Result<RatePublication, string> =>
  Result.flatMap(readRatesXml(xml), (parsed) =>
    Result.flatMap(
      Result.mapError(decodeValCurs(parsed), () => "not the Bank of Russia's daily rates (ValCurs of Valutes)"),
      ({ ValCurs: curs }) => {
        const [, dd, mm, yyyy] = russianDay.exec(curs["@Date"]) ?? []
        if (dd === undefined || mm === undefined || yyyy === undefined) {
          return Result.fail(`Bank of Russia: "${curs["@Date"]}" is not a date (dd.mm.yyyy)`)
        }
        const publishedOn = `${yyyy}-${mm}-${dd}`
        const eur = curs.Valute.find((v) => v.CharCode === "EUR")
        if (eur === undefined) return Result.fail(`Bank of Russia ${publishedOn}: no EUR rate, so no RUB per EUR`)
        const perEur = nationalPerEur(eur.Value.replace(",", "."), eur.Nominal)
        if (Option.isNone(perEur)) {
          return Result.fail(
            `Bank of Russia ${publishedOn}: EUR "${eur.Value}" per ${eur.Nominal} is not a usable rate`
          )
        }
        return Result.succeed({
          publisher: "CBR",
          publishedOn,
          perEur: [{ currency: nationalCurrencies.CBR, perEur: perEur.value }]
        })
      }
    )
  )
