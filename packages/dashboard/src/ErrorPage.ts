import { html } from "@tenders/core"
import { page } from "./Layout.ts"
import type { PageContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"

const backLabel = (ctx: PageContext, back: string) => {
  const t = ctx.t
  const labels: Record<string, string> = {
    [paths.signIn]: t.signIn.title,
    [paths.keys]: t.nav.keys,
    [paths.search]: t.nav.search,
    [paths.watchlists]: t.nav.watchlists,
    [paths.deliveries]: t.nav.deliveries
  }
  return labels[back] ?? t.nav.overview
}

/** A page that only says what went wrong, with a way back. */
export const errorPage = (ctx: PageContext, message: string, back: string) =>
  page(
    ctx,
    ctx.t.errors.title,
    html`<p class="notice error" role="alert">${message}</p>
      <p><a href="${back}">${backLabel(ctx, back)}</a></p>`
  )
