import {
  type FullTender,
  type HintInput,
  html,
  type HtmlPart,
  isWebLink,
  planRules,
  publisherNames,
  RatePublisher,
  ratesFacts,
  type SearchResponse,
  type TenderCard
} from "@tenders/core"
import { formatDeadline, formatInstant, formatMoney, formatNumber, instantOf } from "./Format.ts"
import { type FormState, filterFields, problemSummary } from "./FormFields.ts"
import { page } from "./Layout.ts"
import type { SignedInContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"

/** What a search gave: its results, or why it was refused (the plan, as the API refuses it). */
export type SearchOutcome =
  | { readonly _tag: "Results"; readonly response: SearchResponse; readonly notes: HintInput }
  | { readonly _tag: "Refused"; readonly message: HtmlPart }

/** A link to a source's page, only when it is a web address (a feed's text is not trusted to be one). */
const outbound = (url: string, label: string) =>
  isWebLink(url)
    ? html`<a href="${url}" rel="noopener noreferrer external">${label}</a>`
    : html`<span>${label === url ? url : ""}</span>`

const budgetOf = ({ language, t }: SignedInContext, card: Pick<TenderCard, "budget" | "currency">) =>
  card.budget === null ? t.search.notGiven : formatMoney(language, card.budget, card.currency)

/** A tender's facts common to its card and its full page, as label and value. */
const cardFacts = (ctx: SignedInContext, card: TenderCard): ReadonlyArray<readonly [string, string]> => {
  const s = ctx.t.search
  return [
    [s.buyer, card.buyer ?? s.notGiven],
    [s.country, card.country ?? s.notGiven],
    [s.budget, budgetOf(ctx, card)],
    [s.deadline, formatDeadline(ctx, card.deadline)],
    [s.source, card.source]
  ]
}

const resultCard = (ctx: SignedInContext, card: TenderCard) =>
  html`<li class="card" data-testid="result" data-tender-id="${card.id}">
    <h3><a href="${paths.tender.of(card.id)}">${card.title}</a></h3>
    ${card.subject === undefined ? "" : html`<p class="muted">${card.subject}</p>`}
    <dl class="pairs">
      ${cardFacts(ctx, card).map(
        ([label, value]) =>
          html`<div>
            <dt>${label}</dt>
            <dd>${value}</dd>
          </div>`
      )}
    </dl>
    <p>${outbound(card.url, ctx.t.search.onSource)}</p>
  </li>`

/**
 * The search's notes in the page's language, from what the API's `hint` is made of (corrections, widening, too few
 * results, budgets converted); "none match" is the heading already.
 */
const notesOf = (ctx: SignedInContext, notes: HintInput): Array<string> => {
  const s = ctx.t.search.notes
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
  if (notes.budgetCurrency !== undefined) said.push(...convertedNotes(ctx, notes.budgetCurrency, notes))
  return said
}

/** Budgets converted: at which quarter's rates, whose (or the shipped table's), and what was missing or stale. */
const convertedNotes = (ctx: SignedInContext, currency: string, notes: HintInput): Array<string> => {
  const s = ctx.t.search.notes
  if (notes.rates === undefined) return [s.converted(currency, notes.ratesQuarter, "")]
  const facts = ratesFacts(notes.rates)
  const publisher = (name: string) => {
    const code = RatePublisher.literals.find((p) => publisherNames[p] === name)
    return code === undefined ? name : s.publishers[code]
  }
  const from = facts.fallback === null ? facts.publishers.map(publisher).join(", ") : s.fallback
  const said = [s.converted(currency, facts.quarter, from)]
  if (facts.missing.length > 0) said.push(s.missing(facts.missing.join(", ")))
  if (facts.stale.length > 0) {
    said.push(s.stale(facts.quarter, facts.stale.map((f) => `${f.currency} (${f.publishedOn})`).join(", ")))
  }
  return said
}

const results = (ctx: SignedInContext, response: SearchResponse, notes: HintInput) => {
  const t = ctx.t
  const n = response.results.length
  const said = notesOf(ctx, notes)
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
      ${response.results.map((card) => resultCard(ctx, card))}
    </ol>`
}

/** The search: words and filters (a GET form, so a search is a link), and the results as cards. */
export const searchPage = (ctx: SignedInContext, form: FormState, outcome?: SearchOutcome) => {
  const t = ctx.t
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
      ${outcome?._tag === "Results" ? results(ctx, outcome.response, outcome.notes) : ""}`
  )
}

const codes = (label: string, list: ReadonlyArray<string> | undefined) =>
  list === undefined || list.length === 0
    ? ""
    : html`<dt>${label}</dt>
        <dd>${list.join(", ")}</dd>`

/** One tender's full card, as `GET /v1/tenders/{id}` gives it for the account's plan. */
export const tenderPage = (ctx: SignedInContext, tender: FullTender) => {
  const t = ctx.t
  const d = t.tender
  const published = tender.publishedAt === null ? undefined : instantOf(tender.publishedAt)
  return page(
    ctx,
    tender.title,
    html`<dl class="facts" data-testid="tender" data-tender-id="${tender.id}">
        <dt>${d.status}</dt>
        <dd>${d.statuses[tender.status]}</dd>
        ${cardFacts(ctx, tender).map(
          ([label, value]) =>
            html`<dt>${label}</dt>
              <dd>${value}</dd>`
        )}
        <dt>${d.region}</dt>
        <dd>${tender.region ?? t.search.notGiven}</dd>
        <dt>${d.published}</dt>
        <dd>${published === undefined ? t.search.notGiven : formatInstant(ctx.language, published)}</dd>
        <dt>${d.updated}</dt>
        <dd>${formatInstant(ctx.language, instantOf(tender.updatedAt))}</dd>
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
                        <td data-label="${t.search.budget}">${budgetOf(ctx, lot)}</td>
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
