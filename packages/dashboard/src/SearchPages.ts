import { type FullTender, type HintInput, planRules, type SearchResponse, type TenderCard } from "@tenders/core"
import { formatInstant, formatMoney, formatNumber } from "./Format.ts"
import { type FormState, filterFields, problemSummary } from "./FormFields.ts"
import { html, type HtmlPart } from "./Html.ts"
import { type Messages, messages } from "./I18n.ts"
import { page, paths } from "./Pages.ts"
import type { SignedInContext } from "./Web.ts"

/** What a search gave: its results, or why it was refused (the plan, as the API refuses it). */
export type SearchOutcome =
  | { readonly _tag: "Results"; readonly response: SearchResponse; readonly notes: HintInput }
  | { readonly _tag: "Refused"; readonly message: HtmlPart }

/** A link to a source's page, only when it is a web address (a feed's text is not trusted to be one). */
const outbound = (url: string, label: string) =>
  /^https?:\/\//iu.test(url) && URL.canParse(url)
    ? html`<a href="${url}" rel="noopener noreferrer external">${label}</a>`
    : html`<span>${label === url ? url : ""}</span>`

const budgetOf = (ctx: SignedInContext, t: Messages, card: Pick<TenderCard, "budget" | "currency">) =>
  card.budget === null ? t.search.notGiven : formatMoney(ctx.language, card.budget, card.currency)

const deadlineOf = (ctx: SignedInContext, t: Messages, deadline: string | null) =>
  deadline === null ? t.search.notGiven : formatInstant(ctx.language, deadline)

/** A tender's facts common to its card and its full page, as label and value. */
const cardFacts = (ctx: SignedInContext, t: Messages, card: TenderCard): ReadonlyArray<readonly [string, string]> => [
  [t.search.buyer, card.buyer ?? t.search.notGiven],
  [t.search.country, card.country ?? t.search.notGiven],
  [t.search.budget, budgetOf(ctx, t, card)],
  [t.search.deadline, deadlineOf(ctx, t, card.deadline)],
  [t.search.source, card.source]
]

const resultCard = (ctx: SignedInContext, t: Messages, card: TenderCard) =>
  html`<li class="card" data-testid="result" data-tender-id="${card.id}">
    <h3><a href="${paths.tender(card.id)}">${card.title}</a></h3>
    ${card.subject === undefined ? "" : html`<p class="muted">${card.subject}</p>`}
    <dl class="pairs">
      ${cardFacts(ctx, t, card).map(
        ([label, value]) =>
          html`<div>
            <dt>${label}</dt>
            <dd>${value}</dd>
          </div>`
      )}
    </dl>
    <p>${outbound(card.url, t.search.onSource)}</p>
  </li>`

/**
 * The search's notes in the page's language, from what the API's `hint` is made of (corrections, widening, too few
 * results, budgets converted); "none match" is the heading already.
 */
const notesOf = (ctx: SignedInContext, t: Messages, notes: HintInput): Array<string> => {
  const s = t.search.notes
  const said: Array<string> = []
  if (notes.corrections.length > 0) {
    said.push(s.read(notes.corrections.map(([typed, read]) => s.readAs(typed, read)).join(", ")))
  }
  if (notes.approximate) said.push(s.approximate)
  else if (notes.found < notes.limit) {
    if (notes.found > 0) said.push(s.few(notes.found, formatNumber(ctx.language, notes.found)))
    if (notes.textUsed || notes.filtersUsed.length > 0) said.push(s.broaden)
  }
  if (notes.also.length > 0) said.push(s.also(notes.also.join(", ")))
  if (notes.budgetCurrency !== undefined) said.push(s.converted(notes.budgetCurrency, notes.ratesQuarter))
  return said
}

const results = (ctx: SignedInContext, t: Messages, response: SearchResponse, notes: HintInput) => {
  const n = response.results.length
  const said = notesOf(ctx, t, notes)
  return html`<h2 id="results">${n === 0 ? t.search.none : t.search.results(n, formatNumber(ctx.language, n))}</h2>
    ${
      said.length === 0
        ? ""
        : html`<p class="notice" data-testid="search-hint"><strong>${t.search.hint}:</strong> ${said.join(" ")}</p>`
    }${
      response.degradedSources === undefined
        ? ""
        : html`<p class="notice error">${t.search.degraded(response.degradedSources.join(", "))}</p>`
    }
    <ol class="cards" aria-labelledby="results">
      ${response.results.map((card) => resultCard(ctx, t, card))}
    </ol>`
}

/** The search: words and filters (a GET form, so a search is a link), and the results as cards. */
export const searchPage = (ctx: SignedInContext, form: FormState, outcome?: SearchOutcome) => {
  const t = messages[ctx.language]
  const refusal = outcome?._tag === "Refused" ? outcome.message : undefined
  return page(
    ctx,
    t.search.title,
    html`${problemSummary(t, form, "s", refusal)}
      <form method="get" action="${paths.search}" class="stack wide" role="search" data-testid="search">
        ${filterFields(t, form, "s", planRules[ctx.session.account.plan].structuredFilters, true)}
        <button type="submit">${t.search.submit}</button>
        <p class="help">${t.search.notCounted}</p>
      </form>
      ${outcome?._tag === "Results" ? results(ctx, t, outcome.response, outcome.notes) : ""}`
  )
}

const codes = (label: string, list: ReadonlyArray<string> | undefined) =>
  list === undefined || list.length === 0
    ? ""
    : html`<dt>${label}</dt>
        <dd>${list.join(", ")}</dd>`

/** One tender's full card, as `GET /v1/tenders/{id}` gives it for the account's plan. */
export const tenderPage = (ctx: SignedInContext, tender: FullTender) => {
  const t = messages[ctx.language]
  const d = t.tender
  return page(
    ctx,
    tender.title,
    html`<dl class="facts" data-testid="tender" data-tender-id="${tender.id}">
        <dt>${d.status}</dt>
        <dd>${d.statuses[tender.status]}</dd>
        ${cardFacts(ctx, t, tender).map(
          ([label, value]) =>
            html`<dt>${label}</dt>
              <dd>${value}</dd>`
        )}
        <dt>${d.region}</dt>
        <dd>${tender.region ?? t.search.notGiven}</dd>
        <dt>${d.published}</dt>
        <dd>${tender.publishedAt === null ? t.search.notGiven : formatInstant(ctx.language, tender.publishedAt)}</dd>
        <dt>${d.updated}</dt>
        <dd>${formatInstant(ctx.language, tender.updatedAt)}</dd>
        <dt>${d.lotsCount}</dt>
        <dd>${tender.lotsCount === null ? t.search.notGiven : formatNumber(ctx.language, tender.lotsCount)}</dd>
        ${
          tender.subject === undefined
            ? ""
            : html`<dt>${d.subject}</dt>
                <dd>${tender.subject}</dd>`
        }
        ${codes(d.cpvCodes, tender.cpvCodes)}${codes(d.okpd2Codes, tender.okpd2Codes)}
      </dl>
      <p>${outbound(tender.url, t.search.onSource)}</p>
      ${
        tender.lots === undefined || tender.lots.length === 0
          ? ""
          : html`<h2>${d.lots}</h2>
              <table>
                <thead>
                  <tr>
                    <th scope="col">${d.lotTitle}</th>
                    <th scope="col">${t.search.budget}</th>
                    <th scope="col">${d.cpvCodes}</th>
                  </tr>
                </thead>
                <tbody>
                  ${tender.lots.map(
                    (lot) =>
                      html`<tr>
                        <td data-label="${d.lotTitle}" class="wrap">${lot.title}</td>
                        <td data-label="${t.search.budget}">${budgetOf(ctx, t, lot)}</td>
                        <td data-label="${d.cpvCodes}">${lot.cpvCodes.join(", ")}</td>
                      </tr>`
                  )}
                </tbody>
              </table>`
      }${
        tender.docsUrl === undefined || tender.docsUrl.length === 0
          ? ""
          : html`<h2>${d.documents}</h2>
              <ul>
                ${tender.docsUrl.map((url) => html`<li class="wrap">${outbound(url, url)}</li>`)}
              </ul>`
      }
      ${planRules[ctx.session.account.plan].fullTenderExtras ? "" : html`<p class="notice">${d.paidOnly}</p>`}
      <p><a href="${paths.search}">${d.back}</a></p>`
  )
}
