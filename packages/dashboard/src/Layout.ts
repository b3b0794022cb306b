import { type Html, html, type HtmlPart, type UiLanguage, uiLanguages } from "@tenders/core"
import { assetUrls } from "./Assets.ts"
import { messages } from "./I18n.ts"
import type { PageContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { postForm } from "./Widgets.ts"

const navigation = (ctx: PageContext) => {
  if (ctx.session === undefined) return ""
  const t = ctx.t
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

// Each language is named in itself, whatever the page's language.
const languageLinks = (ctx: PageContext) =>
  html`<div class="languages">
    <div class="choices" role="group" aria-label="${ctx.t.nav.language}">
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
            html`<button type="submit" class="secondary">${ctx.t.nav.signOut}</button>`,
            html`class="inline"`
          )
        : ""
    }
  </div>`

/** A whole page: the bar (brand, navigation, languages, sign-out) and the content under one heading. */
export const page = (ctx: PageContext, title: string, content: HtmlPart): Html =>
  html`<!doctype html>
    <html lang="${ctx.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Tenders</title>
        <link rel="stylesheet" href="${assetUrls.style}" />
        <script src="${assetUrls.script}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">${ctx.t.skip}</a>
        <header>
          <div class="bar">
            <a class="brand" href="${paths.home}">Tenders</a>${languageLinks(ctx)}${navigation(ctx)}
          </div>
        </header>
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${content}
        </main>
      </body>
    </html>`
