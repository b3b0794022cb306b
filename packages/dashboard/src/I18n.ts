import type { UiLanguage } from "@tenders/core"
import { en, type Messages } from "./i18n/en.ts"
import { hy } from "./i18n/hy.ts"
import { ru } from "./i18n/ru.ts"

export type { Messages }

/** The dashboard's texts in each language. */
export const messages: Readonly<Record<UiLanguage, Messages>> = { en, ru, hy }
