import { type Html, html } from "./Html.ts"

/**
 * Whether a URL from a feed or a message may be a link: a web address (`http:` or `https:`) that parses. Anything
 * else (`javascript:`, `data:`, a broken address) is shown as text, never put in an `href`.
 */
export const isWebLink = (url: string): boolean => /^https?:\/\//iu.test(url) && URL.canParse(url)

/** A URL shown as itself: a link to it when it is a web address, else its text. */
export const linkedUrl = (url: string): Html => (isWebLink(url) ? html`<a href="${url}">${url}</a>` : html`${url}`)
