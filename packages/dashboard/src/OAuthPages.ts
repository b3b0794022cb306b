import { type GrantInfo, html } from "@tenders/core"
import type { DateTime } from "effect"
import { formatInstant } from "./Format.ts"
import { page } from "./Layout.ts"
import type { PageContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { dataTable, postForm, rowButton } from "./Widgets.ts"

/** Where a redirect URI sends the browser back to, as a person reads it: its host, or its app scheme. */
export const returnHost = (redirectUri: string): string => {
  const url = new URL(redirectUri)
  return url.host === "" ? url.protocol.replace(/:$/u, "") : url.host
}

/** The consent page: who asks, where it returns, what it may do; Allow and Deny post the request back. */
export const consentPage = (
  ctx: PageContext,
  request: { readonly clientName: string; readonly redirectUri: string; readonly publishedBy: string | undefined },
  params: ReadonlyArray<readonly [string, string]>
) => {
  const t = ctx.t.oauth
  return page(
    ctx,
    t.consentTitle,
    html`<p data-testid="consent-client">${t.consentBody(request.clientName, returnHost(request.redirectUri))}</p>
      ${request.publishedBy === undefined ? "" : html`<p class="help">${t.publishedBy(request.publishedBy)}</p>`}
      ${postForm(
        ctx,
        ctx.path,
        html`${params.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
          <p class="secret">
            <button type="submit" name="decision" value="allow">${t.allow}</button>
            <button type="submit" name="decision" value="deny" class="secondary">${t.deny}</button>
          </p>`,
        html`data-testid="consent"`
      )}`
  )
}

/**
 * An authorization request refused for the app (its redirect URI is verified): what is wrong, and a link back to
 * the app with the error, followed only by a person's click (the page does not redirect by itself: RFC 9700 §4.11).
 */
export const refusedRequestPage = (ctx: PageContext, description: string, backToApp: string) => {
  const t = ctx.t
  return page(
    ctx,
    t.errors.title,
    html`<p class="notice error" role="alert">${t.oauth.refused} ${description}</p>
      <p><a href="${backToApp}" data-testid="return-to-app">${t.oauth.returnTo(returnHost(backToApp))}</a></p>`
  )
}

/** The apps connected by OAuth, each with a button that revokes its grant. */
export const appsPage = (ctx: PageContext, grants: ReadonlyArray<GrantInfo>) => {
  const t = ctx.t.oauth
  const when = (instant: DateTime.Utc) => formatInstant(ctx.language, instant)
  return page(
    ctx,
    t.appsTitle,
    dataTable(
      [t.app, t.returnsTo, t.connected, t.lastUsed, { quiet: t.revoke }],
      grants.map(
        (grant) =>
          html`<tr data-testid="app-row">
            <td data-label="${t.app}">${grant.clientName}</td>
            <td data-label="${t.returnsTo}">${returnHost(grant.redirectUri)}</td>
            <td data-label="${t.connected}">${when(grant.createdAt)}</td>
            <td data-label="${t.lastUsed}">${grant.lastUsedAt === null ? t.never : when(grant.lastUsedAt)}</td>
            <td>
              ${rowButton(ctx, paths.revokeApp.of(grant.grantId), {
                text: t.revoke,
                label: t.revokeLabel(grant.clientName),
                testId: "revoke-app",
                style: "danger"
              })}
            </td>
          </tr>`
      ),
      html`<p class="muted" data-testid="apps-empty">${t.appsNone}</p>`
    )
  )
}
