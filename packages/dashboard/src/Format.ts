import type { UiLanguage } from "@tenders/core"
import { DateTime } from "effect"
import type { PageContext } from "./PageContext.ts"

// British English for the 24-hour clock and day-month order; Russian and Armenian as they are.
const locales: Record<UiLanguage, string> = { en: "en-GB", ru: "ru", hy: "hy" }

/** A whole number as the language writes it (`1,000`, `1 000`). */
export const formatNumber = (language: UiLanguage, n: number): string =>
  new Intl.NumberFormat(locales[language]).format(n)

/** A decimal budget with its currency, as the language writes money; the amount alone when the currency is unknown. */
export const formatMoney = (language: UiLanguage, amount: string, currency: string | null): string => {
  const value = Number(amount)
  if (currency === null || !/^[A-Z]{3}$/u.test(currency)) {
    return new Intl.NumberFormat(locales[language], { maximumFractionDigits: 2 }).format(value)
  }
  return new Intl.NumberFormat(locales[language], { style: "currency", currency, maximumFractionDigits: 2 }).format(
    value
  )
}

/** The day of an instant as the language writes a date, in UTC. */
export const formatDate = (language: UiLanguage, at: DateTime.Utc): string =>
  DateTime.formatUtc(at, { locale: locales[language], dateStyle: "medium" })

/** An instant as the language writes a date and time, in UTC. */
export const formatInstant = (language: UiLanguage, at: DateTime.Utc): string =>
  `${DateTime.formatUtc(at, { locale: locales[language], dateStyle: "medium", timeStyle: "short" })} UTC`

/** A day of a month as the language names it: `5 November`. */
export const formatDayOfMonth = (language: UiLanguage, day: DateTime.Utc): string =>
  DateTime.formatUtc(day, { locale: locales[language], day: "numeric", month: "long" })

/** A month as the language names it on its own, with its year: `November 2026`, `ноябрь 2026`. */
export const formatMonth = (language: UiLanguage, month: DateTime.Utc): string =>
  `${DateTime.formatUtc(month, { locale: locales[language], month: "long" })} ${DateTime.getPartUtc(month, "year")}`

/** A stored ISO date or instant (already checked by core's schemas) as an instant. */
export const instantOf = (iso: string): DateTime.Utc => DateTime.makeUnsafe(iso)

/** A tender's deadline as the page's language writes it, or that the notice gives none. */
export const formatDeadline = (ctx: Pick<PageContext, "language" | "t">, deadline: string | null): string =>
  deadline === null ? ctx.t.search.notGiven : formatInstant(ctx.language, instantOf(deadline))
