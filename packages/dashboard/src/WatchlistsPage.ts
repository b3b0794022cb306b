import { type Filters, html, type HtmlPart, planRules, type WatchlistWithMatches } from "@tenders/core"
import { formatDate, formatMoney, formatNumber, instantOf } from "./Format.ts"
import { type FormState, filterFields, inputField, problemSummary } from "./FormFields.ts"
import { page } from "./Layout.ts"
import type { SignedInContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { dataTable, postForm, rowButton } from "./Widgets.ts"

/** What the watchlists page shows besides the list: the form (as typed), and what just happened. */
export interface WatchlistsView {
  readonly watchlists: ReadonlyArray<WatchlistWithMatches>
  readonly form: FormState
  /** Why saving was refused as a whole (the plan, its limit, a rule of the API), above the form's problems. */
  readonly refusal?: HtmlPart
  readonly saved?: WatchlistWithMatches
  readonly deleted?: boolean
}

const filtersOf = (ctx: SignedInContext, filters: Filters) => {
  const f = ctx.t.filters
  const budget = (value: number) => formatMoney(ctx.language, String(value), filters.budgetCurrency ?? null)
  const parts: ReadonlyArray<string | undefined> = [
    filters.q === undefined || filters.q.length === 0 ? undefined : `“${filters.q}”`,
    filters.countries?.length ? `${f.countries}: ${filters.countries.join(", ")}` : undefined,
    filters.cpv?.length ? `${f.cpv}: ${filters.cpv.join(", ")}` : undefined,
    filters.minBudget === undefined ? undefined : `${f.minBudget}: ${budget(filters.minBudget)}`,
    filters.maxBudget === undefined ? undefined : `${f.maxBudget}: ${budget(filters.maxBudget)}`,
    filters.deadlineAfter === undefined
      ? undefined
      : `${f.deadlineAfter}: ${formatDate(ctx.language, instantOf(filters.deadlineAfter))}`
  ]
  return html`<ul class="plain">
    ${parts.map((part) => (part === undefined ? "" : html`<li>${part}</li>`))}
  </ul>`
}

const row = (ctx: SignedInContext, w: WatchlistWithMatches) => {
  const l = ctx.t.watchlists
  const channels = [w.channels?.email === false ? "" : l.email, w.channels?.webhook ?? ""].filter((c) => c)
  return html`<tr data-testid="watchlist-row" data-watchlist-id="${w.id}">
    <td data-label="${l.name}"><strong>${w.name}</strong></td>
    <td data-label="${l.filters}">${filtersOf(ctx, w.filters)}</td>
    <td data-label="${l.alertsBy}" class="wrap">${channels.length > 0 ? channels.join(", ") : l.alertsPageOnly}</td>
    <td data-label="${l.matches}" data-testid="matches" data-count="${w.estimatedMatches}">
      ${formatNumber(ctx.language, w.estimatedMatches)}
    </td>
    <td data-label="${l.created}">${formatDate(ctx.language, w.createdAt)}</td>
    <td>
      ${rowButton(ctx, paths.deleteWatchlist.of(w.id), {
        text: l.remove,
        label: l.removeLabel(w.name),
        testId: "delete-watchlist",
        style: "danger"
      })}
    </td>
  </tr>`
}

/** The account's watchlists with their matches now, and the form that saves a new one through the API's rules. */
export const watchlistsPage = (ctx: SignedInContext, view: WatchlistsView) => {
  const t = ctx.t
  const l = t.watchlists
  const rules = planRules[ctx.session.account.plan]
  const n = (value: number) => formatNumber(ctx.language, value)
  const { form } = view
  const emailOn = form.values["email"] === "on"
  return page(
    ctx,
    l.title,
    html`${
        view.saved
          ? html`<p class="notice" role="status" data-testid="saved">
              ${l.saved(view.saved.name, view.saved.estimatedMatches, n(view.saved.estimatedMatches))}
            </p>`
          : ""
      }${view.deleted ? html`<p class="notice" role="status">${l.deleted}</p>` : ""}
      ${problemSummary(t, form, "wl", view.refusal)}
      <p>${l.intro}</p>
      <h2>${l.yours(n(view.watchlists.length), n(rules.watchlists))}</h2>
      ${dataTable(
        [l.name, l.filters, l.alertsBy, l.matches, l.created, { quiet: l.remove }],
        view.watchlists.map((w) => row(ctx, w)),
        html`<p class="muted" data-testid="no-watchlists">${l.none}</p>`
      )}
      <h2 id="new-watchlist">${l.create}</h2>
      ${postForm(
        ctx,
        paths.watchlists,
        html`${inputField(form, {
            id: "wl-name",
            name: "name",
            label: l.name,
            attributes: html`required maxlength="100" autocomplete="off"`
          })}
          ${filterFields(t, form, "wl", rules.structuredFilters)}
          <fieldset>
            <legend>${l.channels}</legend>
            ${rules.webhooks ? "" : html`<p class="help">${l.webhookPaid}</p>`}
            <div class="check">
              <input id="wl-email" name="email" type="checkbox" ${emailOn ? html`checked` : ""} />
              <label for="wl-email">${l.email}</label>
            </div>
            ${inputField(form, {
              id: "wl-webhook",
              name: "webhook",
              label: l.webhook,
              type: "url",
              attributes: html`maxlength="2048" placeholder="https://" autocomplete="off"`
            })}
          </fieldset>
          <p id="live-count" class="live" aria-live="polite" data-testid="live-count">${l.idle}</p>
          <button type="submit">${l.submit}</button>`,
        html`class="stack wide" data-testid="create-watchlist" aria-labelledby="new-watchlist"
        data-live-count="${paths.watchlistCount}" data-live-output="live-count"`
      )}`
  )
}
