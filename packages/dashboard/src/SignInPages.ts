import { html } from "@tenders/core"
import { page } from "./Layout.ts"
import type { PageContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { hidden } from "./Widgets.ts"

/** The sign-in form, with an error above it when there is one. */
export const signInPage = (ctx: PageContext, error?: string, email = "", next?: string) => {
  const t = ctx.t
  return page(
    ctx,
    t.signIn.title,
    html`${error ? html`<p class="notice error" role="alert" id="sign-in-error">${error}</p>` : ""}
      <p>${t.signIn.intro}</p>
      <form method="post" action="${paths.signIn}" class="stack" data-testid="sign-in">
        ${next === undefined ? "" : hidden("next", next)}
        <label for="email">${t.signIn.email}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value="${email}"
          ${error ? html` aria-invalid="true" aria-describedby="sign-in-error"` : ""}
        />
        <button type="submit">${t.signIn.submit}</button>
      </form>`
  )
}

/** The answer to a sign-in request: the same whether or not the address has an account. */
export const linkSentPage = (ctx: PageContext, email: string, minutes: number) => {
  const t = ctx.t
  return page(
    ctx,
    t.sent.title,
    html`<p class="notice" role="status">${t.sent.body(email, minutes)}</p>
      <p><a href="${paths.signIn}">${t.sent.again}</a></p>`
  )
}

/** The page a sign-in link opens: one button, so that a mail scanner following the link does not use it. */
export const confirmPage = (ctx: PageContext, token: string, email: string, next?: string) => {
  const t = ctx.t
  return page(
    ctx,
    t.confirm.title,
    html`<p>${t.confirm.body(email)}</p>
      <form method="post" action="${paths.link}">
        ${hidden("token", token)}${next === undefined ? "" : hidden("next", next)}<button
          type="submit"
          data-testid="confirm-sign-in"
        >
          ${t.confirm.submit}
        </button>
      </form>`
  )
}
