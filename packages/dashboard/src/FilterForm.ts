import { Option, type Schema, SchemaIssue } from "effect"
import { UrlParams } from "effect/http"
import type { Messages } from "./I18n.ts"

/** The form fields of the filters (spec "Filters"), named as the API names them. */
export const filterFieldNames = ["q", "countries", "cpv", "minBudget", "maxBudget", "budgetCurrency", "deadlineAfter"]

/** What a person typed in a form, by field name: what the form shows again after a refusal. */
export type FormValues = Readonly<Record<string, string>>

/** The typed values of `names` in a form (or a query string). */
export const typedValues = (form: UrlParams.UrlParams, names: ReadonlyArray<string>): FormValues =>
  Object.fromEntries(names.map((name) => [name, Option.getOrElse(UrlParams.getFirst(form, name), () => "")]))

const list = (text: string) => text.split(/[\s,;]+/u).filter((item) => item.length > 0)

// Spaces people put in large numbers, and a decimal comma (`1 000,50`), as a number; anything else stays not a number.
const amount = (text: string) => {
  const plain = text.replace(/[\s\u00a0\u202f]/gu, "")
  return Number(plain.includes(".") ? plain : plain.replace(",", "."))
}

/**
 * The filters as the API would receive them, for the contract's schema to decide on: empty fields are omitted, lists
 * are split at commas or spaces, amounts read as numbers. `q` is kept even when empty when `keepQ` (search needs it).
 */
export const filtersInput = (values: FormValues, keepQ = false): Record<string, unknown> => {
  const text = (name: string) => (values[name] ?? "").trim()
  const q = text("q")
  return {
    ...(q.length > 0 || keepQ ? { q } : {}),
    ...(list(text("countries")).length > 0 ? { countries: list(text("countries")) } : {}),
    ...(list(text("cpv")).length > 0 ? { cpv: list(text("cpv")) } : {}),
    ...(text("minBudget").length > 0 ? { minBudget: amount(text("minBudget")) } : {}),
    ...(text("maxBudget").length > 0 ? { maxBudget: amount(text("maxBudget")) } : {}),
    ...(text("budgetCurrency").length > 0 ? { budgetCurrency: text("budgetCurrency") } : {}),
    ...(text("deadlineAfter").length > 0 ? { deadlineAfter: text("deadlineAfter") } : {})
  }
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The form fields a schema refused, by the path of each issue: its first field name (a filter, `name`, `webhook`);
 * the one check on the filters as a whole (minBudget above maxBudget) is put on `maxBudget`.
 */
const refusedFields = (error: Schema.SchemaError): ReadonlySet<string> =>
  new Set(
    formatter(error.issue).issues.map((issue) => {
      const keys = (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
      const field = keys.find((key) => typeof key === "string" && key !== "filters" && key !== "channels")
      return field === undefined ? "maxBudget" : String(field)
    })
  )

/** The refused fields of a form, each with its problem in the page's language (the form's own title if it has none). */
export const problemsOf = (t: Messages, error: Schema.SchemaError): ReadonlyMap<string, string> => {
  const texts = new Map(Object.entries(t.filters.problems))
  return new Map([...refusedFields(error)].map((field) => [field, texts.get(field) ?? t.errors.title]))
}
