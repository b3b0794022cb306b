/**
 * The one HTML writer of the dashboard's pages and the e-mails: markup is made only by the `html` tag, which escapes
 * every interpolated text, so no caller can forget to. It lives in core, pure and with no dependency, because the
 * dashboard and the notifier may import core but not each other (scripts/check-architecture.mjs).
 */

/** Markup that is already safe: made by `html`, never from a caller's string. */
export class Html {
  readonly markup: string
  constructor(markup: string) {
    this.markup = markup
  }
  toString(): string {
    return this.markup
  }
}

/** What may be put in `html`: text (escaped), numbers, markup, lists of them; nothing for undefined, null, false. */
export type HtmlPart = Html | string | number | undefined | null | false | ReadonlyArray<HtmlPart>

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** A text escaped for HTML content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (c) => escapes[c] ?? c)

const render = (part: HtmlPart): string => {
  if (part instanceof Html) return part.markup
  if (part === undefined || part === null || part === false) return ""
  if (typeof part === "number") return String(part)
  if (typeof part === "string") return escapeHtml(part)
  return part.map(render).join("")
}

/** Markup from a template: every interpolated text is escaped (attributes must be quoted). */
export const html = (strings: TemplateStringsArray, ...parts: ReadonlyArray<HtmlPart>): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < parts.length ? render(parts[i]) : ""), ""))
