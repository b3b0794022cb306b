import { type Html, html, type HtmlPart } from "@tenders/core"
import type { PageContext } from "./PageContext.ts"

/** A hidden form field. */
export const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}" />`

/** A form that changes something: POST, with the session's form token. */
export const postForm = (ctx: PageContext, action: string, body: HtmlPart, attributes: HtmlPart = "") =>
  html`<form method="post" action="${action}" ${attributes}>
    ${ctx.session ? hidden("csrf", ctx.session.csrf) : ""}${body}
  </form>`

/**
 * A row's one-button form (revoke, retry, delete): the button's text, and a label naming what it acts on, which is
 * what a screen reader says among the rows' alike buttons.
 */
export const rowButton = (
  ctx: PageContext,
  action: string,
  button: {
    readonly text: string
    readonly label: string
    readonly testId: string
    readonly style: "danger" | "secondary"
    readonly name?: string
  }
) =>
  postForm(
    ctx,
    action,
    html`<button
      type="submit"
      class="${button.style}"
      ${button.name === undefined ? "" : html`name="${button.name}"`}
      data-testid="${button.testId}"
      aria-label="${button.label}"
    >
      ${button.text}
    </button>`
  )

/** A secret in a status notice, with a button that copies it (the page's script); `id` is also its test id. */
export const shownSecret = (ctx: PageContext, id: string, message: string, value: string) => {
  const t = ctx.t.keys
  return html`<div class="notice" role="status">
    <p>${message}</p>
    <div class="secret">
      <code id="${id}" data-testid="${id}">${value}</code>
      <button type="button" class="secondary" data-copy="${id}" data-copied="${t.copied}">${t.copy}</button
      ><span id="${id}-status" aria-live="polite"></span>
    </div>
  </div>`
}

/** A column heading: its text, or `{ quiet }` for a column of buttons (heard, shown faint). */
export type Heading = string | { readonly quiet: string }

/** A table of rows under column headings (each cell names its column in `data-label`), or `empty` without rows. */
export const dataTable = (headings: ReadonlyArray<Heading>, rows: ReadonlyArray<HtmlPart>, empty: Html): Html =>
  rows.length === 0
    ? empty
    : html`<table>
        <thead>
          <tr>
            ${headings.map((heading) =>
              typeof heading === "string"
                ? html`<th scope="col">${heading}</th>`
                : html`<th scope="col"><span class="muted">${heading.quiet}</span></th>`
            )}
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>`
