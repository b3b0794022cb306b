import type { Schema } from "effect"
import { SchemaAST, SchemaIssue } from "effect"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (path: ReadonlyArray<PropertyKey>) =>
  path
    .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
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

/** The field names of the struct that refused a key: the schema being decoded is the list of known fields. */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isObjects(ast)
    ? ast.propertySignatures.flatMap((field) => (typeof field.name === "string" ? [field.name] : []))
    : []

const suggestion = (key: PropertyKey | undefined, fields: ReadonlyArray<string>) => {
  const lower = String(key).toLowerCase()
  const [best] = fields
    .map((field) => ({ field, d: distance(lower, field.toLowerCase()) }))
    .filter(({ d, field }) => d <= Math.max(2, Math.floor(field.length / 3)))
    .toSorted((a, b) => a.d - b.d)
  return best === undefined ? "" : ` (did you mean "${best.field}"?)`
}

const unknownProperty = (path: ReadonlyArray<PropertyKey>, fields: ReadonlyArray<string>) =>
  `unknown property "${pathText(path)}"${suggestion(path.at(-1), fields)}`

/** One human part per failing field; an excess key and a missing key are told by the issue's kind, not its text. */
const parts = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<string> => {
  switch (issue._tag) {
    case "Pointer":
      return parts(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => parts(inner, path))
    case "AnyOf":
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => parts(inner, path))
      break
    case "Encoding":
      return parts(issue.issue, path)
    case "UnexpectedKey":
      return [unknownProperty(path, fieldsOf(issue.ast))]
    case "MissingKey":
      return [`${pathText(path)} is required`]
    case "InvalidType":
      // A record whose values can be nothing (a body that takes no properties) refuses every key.
      if (SchemaAST.isNever(issue.ast) && path.length > 0) return [unknownProperty(path, [])]
  }
  return formatter(issue).issues.map(({ path: inner, message }) => {
    const keys = (inner ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
    const where = pathText([...path, ...keys])
    return where.length > 0 ? `${where}: ${message}` : message
  })
}

/** A one-line, human message for a schema failure, naming each offending field. */
export const issueMessage = (error: Schema.SchemaError): string => {
  const found = parts(error.issue, [])
  return found.length > 0 ? `Invalid request: ${found.join("; ")}` : "Invalid request"
}
