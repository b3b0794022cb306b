/** The languages of the dashboard and of the messages it sends. */
export const uiLanguages = ["en", "ru", "hy"] as const
/** One of `uiLanguages`. */
export type UiLanguage = (typeof uiLanguages)[number]
