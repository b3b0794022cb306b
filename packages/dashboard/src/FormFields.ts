import { BudgetCurrency, html, type HtmlPart } from "@tenders/core"
import { filterFieldNames, type FormValues } from "./FilterForm.ts"
import type { Messages } from "./I18n.ts"

/** What a form shows: the values typed, and the fields refused with why. */
export interface FormState {
  readonly values: FormValues
  readonly problems: ReadonlyMap<string, string>
}

/** An empty form, or one with the given values (a search from the address bar). */
export const formState = (values: FormValues = {}): FormState => ({ values, problems: new Map() })

/** One labelled input, with its help and its problem (announced with the field, marked invalid). */
export const inputField = (
  state: FormState,
  input: {
    readonly id: string
    readonly name: string
    readonly label: string
    readonly type?: string
    readonly help?: string
    readonly attributes?: HtmlPart
  }
) => {
  const problem = state.problems.get(input.name)
  const described = [input.help ? `${input.id}-help` : "", problem ? `${input.id}-error` : ""].filter((x) => x)
  return html`<div class="field">
    <label for="${input.id}">${input.label}</label>
    ${input.help ? html`<span class="help" id="${input.id}-help">${input.help}</span>` : ""}
    ${problem ? html`<span class="field-error" id="${input.id}-error">${problem}</span>` : ""}
    <input
      id="${input.id}"
      name="${input.name}"
      type="${input.type ?? "text"}"
      value="${state.values[input.name] ?? ""}"
      ${described.length > 0 ? html`aria-describedby="${described.join(" ")}"` : ""}
      ${problem ? html`aria-invalid="true"` : ""}
      ${input.attributes}
    />
  </div>`
}

/**
 * The filters of a search or a watchlist: the words, then the structured filters in a group that says when the
 * plan does not have them (the person still sees what exists; using one is refused as the API refuses it). A
 * search folds the group away while none of its filters is set.
 */
export const filterFields = (t: Messages, state: FormState, prefix: string, paid: boolean, fold = false) => {
  const f = t.filters
  const problem = state.problems.get("budgetCurrency")
  const field = (name: string, label: string, extra: { type?: string; help?: string; attributes?: HtmlPart } = {}) =>
    inputField(state, { id: `${prefix}-${name}`, name, label, ...extra })
  const number = html`inputmode="decimal" autocomplete="off"`
  const structured = filterFieldNames.filter((name) => name !== "q")
  const used = structured.some((name) => (state.values[name] ?? "") !== "" || state.problems.has(name))
  const group = (content: HtmlPart) =>
    fold
      ? html`<details class="filters" ${used ? html`open` : ""}>
          <summary>${f.more}</summary>
          ${content}
        </details>`
      : html`<fieldset>
          <legend>${f.more}</legend>
          ${content}
        </fieldset>`
  return html`${field("q", f.q, { type: "search", help: f.qHelp, attributes: html`maxlength="500"` })}
  ${group(
    html`${paid ? "" : html`<p class="help">${f.paidOnly}</p>`}
      <div class="grid">
        ${field("countries", f.countries, { help: f.countriesHelp, attributes: html`autocomplete="off"` })}
        ${field("cpv", f.cpv, { help: f.cpvHelp, attributes: html`autocomplete="off"` })}
        ${field("minBudget", f.minBudget, { attributes: number })}
        ${field("maxBudget", f.maxBudget, { attributes: number })}
        <div class="field">
          <label for="${prefix}-budgetCurrency">${f.budgetCurrency}</label>
          ${problem ? html`<span class="field-error" id="${prefix}-budgetCurrency-error">${problem}</span>` : ""}
          <select
            id="${prefix}-budgetCurrency"
            name="budgetCurrency"
            ${problem ? html`aria-invalid="true" aria-describedby="${prefix}-budgetCurrency-error"` : ""}
          >
            <option value="">${f.ownCurrency}</option>
            ${BudgetCurrency.literals.map(
              (code) =>
                html`<option value="${code}" ${state.values["budgetCurrency"] === code ? html`selected` : ""}>
                  ${code}
                </option>`
            )}
          </select>
        </div>
        ${field("deadlineAfter", f.deadlineAfter, { type: "date" })}
      </div>`
  )}`
}

/** The problems of a refused form above it, each a link to its field; announced when the page opens. */
export const problemSummary = (t: Messages, state: FormState, prefix: string, lead?: HtmlPart) =>
  state.problems.size === 0 && lead === undefined
    ? ""
    : html`<div class="notice error" role="alert" data-testid="form-problems">
        ${lead === undefined ? html`<p>${t.filters.fix}</p>` : lead}
        ${
          state.problems.size === 0
            ? ""
            : html`<ul>
                ${[...state.problems].map(([name, text]) => html`<li><a href="#${prefix}-${name}">${text}</a></li>`)}
              </ul>`
        }
      </div>`
