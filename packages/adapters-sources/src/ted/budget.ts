import type { RecordLot } from "@tenders/core"
import { cpvCodes, currencyOf, decimalOf, localized, scalars, strings, sumDecimals } from "./values.ts"

type Fields = { readonly [k: string]: unknown }

/** An amount with its currency (currency null when the source gives none). */
export interface Money {
  readonly budget: string | null
  readonly currency: string | null
}

const none: Money = { budget: null, currency: null }

const single = (notice: Fields, valueField: string, currencyField: string): Money | null => {
  const budget =
    scalars(notice[valueField])
      .map(decimalOf)
      .find((v) => v !== null) ?? null
  return budget === null ? null : { budget, currency: currencyOf(notice[currencyField]) }
}

/** Sum of the lot values, only when every value parses, each has a currency and all share one currency. */
const lotSum = (notice: Fields): Money | null => {
  const values = scalars(notice["estimated-value-lot"]).map(decimalOf)
  const currencies = strings(notice["estimated-value-cur-lot"]).map(currencyOf)
  const lotIds = strings(notice["identifier-lot"])
  if (values.length === 0 || currencies.length !== values.length) return null
  if (lotIds.length > 0 && lotIds.length !== values.length) return null
  const distinct = new Set(currencies)
  const [currency] = distinct
  if (distinct.size !== 1 || currency === undefined || currency === null) return null
  const parsed = values.filter((v) => v !== null)
  if (parsed.length !== values.length) return null
  const budget = sumDecimals(parsed)
  return budget === null ? null : { budget, currency }
}

/**
 * FIELD-GUIDE 1.4 budget: `estimated-value-proc` -> sum of `estimated-value-lot` (one currency only) ->
 * `estimated-value-glo` -> for result notices `total-value`; each with its matching `-cur-` field.
 */
export const budgetOf = (notice: Fields, isResult: boolean): Money =>
  single(notice, "estimated-value-proc", "estimated-value-cur-proc") ??
  lotSum(notice) ??
  single(notice, "estimated-value-glo", "estimated-value-cur-glo") ??
  (isResult ? single(notice, "total-value", "total-value-cur") : null) ??
  none

/**
 * Lots zipped from `identifier-lot`, `title-lot`, `estimated-value-lot`, `estimated-value-cur-lot` only when
 * all four have the length of `identifier-lot` (TED arrays are not aligned in general), else [].
 * Per-lot CPV from `main-classification-lot` when that is aligned too, else [].
 */
export const lotsOf = (notice: Fields, officialLanguages: ReadonlyArray<string>): Array<typeof RecordLot.Type> => {
  const ids = strings(notice["identifier-lot"])
  const n = ids.length
  const titles = localized(notice["title-lot"], officialLanguages, n)
  const values = scalars(notice["estimated-value-lot"])
  const currencies = strings(notice["estimated-value-cur-lot"])
  if (n === 0 || titles.length !== n || values.length !== n || currencies.length !== n) return []
  const mainCpv = strings(notice["main-classification-lot"])
  return ids.map((id, i) => {
    const budget = decimalOf(values[i])
    const title = titles[i] ?? ""
    return {
      title: title.length > 0 ? title : id,
      budget,
      currency: budget === null ? null : currencyOf(currencies[i]),
      cpvCodes: mainCpv.length === n ? cpvCodes(mainCpv[i]) : []
    }
  })
}
