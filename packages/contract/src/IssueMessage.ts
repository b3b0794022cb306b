import type { Schema } from "effect"
import { SchemaIssue } from "effect"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const knownFields = ["q", "countries", "cpv", "minBudget", "maxBudget", "deadlineAfter", "budgetCurrency", "limit"]

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>) =>
  path
    .map((segment) => {
      const key = typeof segment === "object" ? segment.key : segment
      return typeof key === "number" ? `[${key}]` : `.${String(key)}`
    })
    .join("")
    .replace(/^\./u, "")

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] ?? 0
}

const suggestion = (name: string) => {
  const lower = name.toLowerCase()
  const scored = knownFields
    .map((field) => ({ field, d: distance(lower, field.toLowerCase()) }))
    .filter(({ d, field }) => d <= Math.max(2, Math.floor(field.length / 3)))
    .toSorted((a, b) => a.d - b.d)
  return scored[0] === undefined ? "" : ` (did you mean "${scored[0].field}"?)`
}

/** A one-line, human message for a schema failure, naming each offending field. */
export const issueMessage = (error: Schema.SchemaError): string => {
  const { issues } = formatter(error.issue)
  const parts = issues.map((issue) => {
    const where = pathText(issue.path ?? [])
    if (issue.message === "Expected no excess property" || issue.message.startsWith("Unexpected key")) {
      const name = where.split(".").pop() ?? where
      return `unknown property "${where}"${suggestion(name)}`
    }
    if (issue.message === "Missing key") return `${where} is required`
    return where.length > 0 ? `${where}: ${issue.message}` : issue.message
  })
  return parts.length > 0 ? `Invalid request: ${parts.join("; ")}` : "Invalid request"
}
