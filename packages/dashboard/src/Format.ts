import type { UiLanguage } from "@tenders/core"

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

const dateTime = (language: UiLanguage, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locales[language], { ...options, timeZone: "UTC" })

/** A day (`YYYY-MM-DD` or an instant) as the language writes a date. */
export const formatDate = (language: UiLanguage, iso: string): string =>
  dateTime(language, { dateStyle: "medium" }).format(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso))

/** An instant as the language writes a date and time, in UTC. */
export const formatInstant = (language: UiLanguage, iso: string): string =>
  `${dateTime(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso))} UTC`

/** A day of a month (`YYYY-MM-DD`) as the language names it: `5 November`. */
export const formatDayOfMonth = (language: UiLanguage, day: string): string =>
  dateTime(language, { day: "numeric", month: "long" }).format(new Date(`${day}T00:00:00Z`))

/** A month (`YYYY-MM`) as the language names it on its own, with its year: `November 2026`, `ноябрь 2026`. */
export const formatMonth = (language: UiLanguage, month: string): string =>
  `${dateTime(language, { month: "long" }).format(new Date(`${month}-01T00:00:00Z`))} ${month.slice(0, 4)}`
