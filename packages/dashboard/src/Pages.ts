import {
  type Account,
  type KeyInfo,
  type KeyKind,
  oauthAuthorizationPath,
  type UiLanguage,
  uiLanguages
} from "@tenders/core"
import { assetUrls } from "./Assets.ts"
import { type Html, html, type HtmlPart } from "./Html.ts"
import { formatDate, formatNumber } from "./Format.ts"
import { type Messages, messages } from "./I18n.ts"
import { usageChart } from "./UsageChart.ts"
import type { SignedInContext } from "./Web.ts"

/** The dashboard's paths. */
export const paths = {
  home: "/dashboard",
  signIn: "/dashboard/sign-in",
  link: "/dashboard/sign-in/link",
  signOut: "/dashboard/sign-out",
  signOutEverywhere: "/dashboard/sign-out/everywhere",
  keys: "/dashboard/keys",
  revoke: (keyId: string) => `/dashboard/keys/${keyId}/revoke`,
  search: "/dashboard/search",
  tender: (id: string) => `/dashboard/tenders/${encodeURIComponent(id)}`,
  watchlists: "/dashboard/watchlists",
  watchlistCount: "/dashboard/watchlists/count",
  deleteWatchlist: (id: string) => `/dashboard/watchlists/${id}/delete`,
  alerts: "/dashboard/alerts",
  deliveries: "/dashboard/deliveries",
  retryDelivery: (id: number) => `/dashboard/deliveries/${id}/retry`,
  settings: "/dashboard/settings",
  authorize: oauthAuthorizationPath,
  apps: "/dashboard/apps",
  revokeApp: (grantId: string) => `/dashboard/apps/${grantId}/revoke`,
  webhookSecret: "/dashboard/settings/webhook-secret",
  style: "/dashboard/assets/app.css",
  script: "/dashboard/assets/app.js"
} as const

/** What every page knows: its language and path, and, once signed in, the account and the form token. */
export interface PageContext {
  readonly language: UiLanguage
  readonly path: string
  /** The page to reopen in another language (its path and query, without `lang`). */
  readonly reopen: string
  readonly session?: { readonly account: Account; readonly csrf: string }
}

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}" />`

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
export const shownSecret = (t: Messages, id: string, message: string, value: string) =>
  html`<div class="notice" role="status">
    <p>${message}</p>
    <div class="secret">
      <code id="${id}" data-testid="${id}">${value}</code>
      <button type="button" class="secondary" data-copy="${id}" data-copied="${t.keys.copied}">${t.keys.copy}</button
      ><span id="${id}-status" aria-live="polite"></span>
    </div>
  </div>`

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

const navigation = (ctx: PageContext, t: Messages) => {
  if (ctx.session === undefined) return ""
  // A tender's full card is reached from the search.
  const here = ctx.path.startsWith("/dashboard/tenders/") ? paths.search : ctx.path
  const links: ReadonlyArray<readonly [string, string]> = [
    [paths.home, t.nav.overview],
    [paths.search, t.nav.search],
    [paths.watchlists, t.nav.watchlists],
    [paths.alerts, t.nav.alerts],
    [paths.deliveries, t.nav.deliveries],
    [paths.keys, t.nav.keys],
    [paths.apps, t.nav.apps],
    [paths.settings, t.nav.settings]
  ]
  return html`<nav aria-label="${t.nav.label}">
    <ul>
      ${links.map(
        ([path, label]) =>
          html`<li><a href="${path}" ${here === path ? html` aria-current="page"` : ""}>${label}</a></li>`
      )}
    </ul>
  </nav>`
}

const inLanguage = (reopen: string, language: UiLanguage) => {
  const url = new URL(reopen, "http://dashboard.invalid")
  url.searchParams.set("lang", language)
  return `${url.pathname}${url.search}`
}

const languageLinks = (ctx: PageContext, t: Messages) =>
  html`<div class="languages">
    <div class="choices" role="group" aria-label="${t.nav.language}">
      ${uiLanguages.map((language) =>
        language === ctx.language
          ? html`<strong lang="${language}" aria-current="true">${messages[language].languageName}</strong>`
          : html`<a lang="${language}" hreflang="${language}" href="${inLanguage(ctx.reopen, language)}"
              >${messages[language].languageName}</a
            >`
      )}
    </div>
    ${
      ctx.session
        ? postForm(
            ctx,
            paths.signOut,
            html`<button type="submit" class="secondary">${t.nav.signOut}</button>`,
            html`class="inline"`
          )
        : ""
    }
  </div>`

/** A whole page: the bar (brand, navigation, languages, sign-out) and the content under one heading. */
export const page = (ctx: PageContext, title: string, content: HtmlPart): Html => {
  const t = messages[ctx.language]
  return html`<!doctype html>
    <html lang="${ctx.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Tenders</title>
        <link rel="stylesheet" href="${assetUrls.style}" />
        <script src="${assetUrls.script}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">${t.skip}</a>
        <header>
          <div class="bar">
            <a class="brand" href="${paths.home}">Tenders</a>${languageLinks(ctx, t)}${navigation(ctx, t)}
          </div>
        </header>
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${content}
        </main>
      </body>
    </html>`
}

/** The sign-in form, with an error above it when there is one. */
export const signInPage = (ctx: PageContext, error?: string, email = "", next?: string) => {
  const t = messages[ctx.language]
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
  const t = messages[ctx.language]
  return page(
    ctx,
    t.sent.title,
    html`<p class="notice" role="status">${t.sent.body(email, minutes)}</p>
      <p><a href="${paths.signIn}">${t.sent.again}</a></p>`
  )
}

/** The page a sign-in link opens: one button, so that a mail scanner following the link does not use it. */
export const confirmPage = (ctx: PageContext, token: string, email: string, next?: string) => {
  const t = messages[ctx.language]
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

const backLabel = (t: Messages, back: string) => {
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
export const errorPage = (ctx: PageContext, message: string, back: string) => {
  const t = messages[ctx.language]
  return page(
    ctx,
    t.errors.title,
    html`<p class="notice error" role="alert">${message}</p>
      <p><a href="${back}">${backLabel(t, back)}</a></p>`
  )
}

/** The overview: plan, this month's calls and packs, and a chart of the calls per day. */
export const overviewPage = (
  ctx: SignedInContext,
  usage: { readonly used: number; readonly limit: number; readonly packs: number; readonly resetsAt: string },
  daily: Parameters<typeof usageChart>[1]
) => {
  const t = messages[ctx.language]
  const plan = ctx.session.account.plan
  const n = (value: number) => formatNumber(ctx.language, value)
  return page(
    ctx,
    t.overview.title,
    html`<dl class="facts" data-testid="usage">
        <dt>${t.overview.plan}</dt>
        <dd data-testid="plan" data-plan="${plan}">${t.plans[plan]}</dd>
        <dt>${t.overview.calls}</dt>
        <dd data-testid="calls-used" data-used="${usage.used}">${t.overview.used(n(usage.used), n(usage.limit))}</dd>
        <dt>${t.overview.packs}</dt>
        <dd>${n(usage.packs)}</dd>
        <dt>${t.overview.resets}</dt>
        <dd>${t.overview.resetsAt(formatDate(ctx.language, usage.resetsAt))}</dd>
      </dl>
      ${usageChart(ctx.language, daily)}`
  )
}

/** A stored instant as people read it: `2026-11-24 13:21 UTC`. */
const when = (timestamp: string) => `${timestamp.slice(0, 16).replace("T", " ")} UTC`

const keyRow = (ctx: PageContext, t: Messages, key: KeyInfo) =>
  html`<tr data-testid="key-row" data-key-id="${key.keyId}">
    <td data-label="${t.keys.prefix}"><code>${key.prefix}…</code></td>
    <td data-label="${t.keys.kind}">${key.kind === "rest" ? t.keys.rest : t.keys.mcp}</td>
    <td data-label="${t.keys.created}">${when(key.createdAt)}</td>
    <td data-label="${t.keys.lastUsed}">${key.lastUsedAt === null ? t.keys.never : when(key.lastUsedAt)}</td>
    <td data-label="${t.keys.status}">
      ${key.revokedAt === null ? t.keys.active : t.keys.revoked(when(key.revokedAt))}
    </td>
    <td>
      ${
        key.revokedAt === null
          ? rowButton(ctx, paths.revoke(key.keyId), {
              text: t.keys.revoke,
              label: t.keys.revokeLabel(key.prefix),
              testId: "revoke",
              style: "danger",
              name: "revoke"
            })
          : ""
      }
    </td>
  </tr>`

/** The keys: a new one's secret (once), the form to make one, and the list with revoke buttons. */
export const keysPage = (
  ctx: PageContext,
  keys: ReadonlyArray<KeyInfo>,
  created?: { readonly key: string; readonly kind: KeyKind }
) => {
  const t = messages[ctx.language]
  return page(
    ctx,
    t.keys.title,
    html`${created ? shownSecret(t, "new-key", t.keys.fresh, created.key) : ""}
      <h2>${t.keys.create}</h2>
      ${postForm(
        ctx,
        paths.keys,
        html`<label for="kind">${t.keys.kind}</label>
          <select id="kind" name="kind">
            <option value="rest">${t.keys.rest}</option>
            <option value="mcp">${t.keys.mcp}</option>
          </select>
          <button type="submit">${t.keys.submit}</button>`,
        html`class="stack" data-testid="create-key"`
      )}
      <h2>${t.keys.title}</h2>
      ${dataTable(
        [t.keys.prefix, t.keys.kind, t.keys.created, t.keys.lastUsed, t.keys.status, { quiet: t.keys.revoke }],
        keys.map((key) => keyRow(ctx, t, key)),
        html`<p class="muted">${t.keys.none}</p>`
      )}`
  )
}
