import { type UiLanguage, uiLanguages } from "@tenders/core"
import { en, type Messages } from "./i18n/en.ts"
import { hy } from "./i18n/hy.ts"
import { ru } from "./i18n/ru.ts"

export type { Messages }

/** The dashboard's texts in each language. */
export const messages: Readonly<Record<UiLanguage, Messages>> = { en, ru, hy }

const isUiLanguage = (code: string | undefined): code is UiLanguage =>
  code !== undefined && (uiLanguages as ReadonlyArray<string>).includes(code)

/**
 * The language to answer in: one chosen on the page (`?lang=`, then the cookie it set), else the first of
 * `Accept-Language` (by its q-values) that the dashboard has, else English.
 */
export const chooseLanguage = (input: {
  readonly query: string | undefined
  readonly cookie: string | undefined
  readonly acceptLanguage: string | undefined
}): UiLanguage => {
  if (isUiLanguage(input.query)) return input.query
  if (isUiLanguage(input.cookie)) return input.cookie
  const ranked = (input.acceptLanguage ?? "")
    .split(",")
    .map((entry, i) => {
      const [tag = "", ...params] = entry.trim().split(";")
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1"
      )
      return { code: tag.trim().toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((entry) => entry.q > 0)
    .toSorted((a, b) => b.q - a.q || a.i - b.i)
  return ranked.map((entry) => entry.code).find(isUiLanguage) ?? "en"
}
