import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server"
import { Predicate, Schema } from "effect"

/** A JSON Schema object. */
export type JsonSchemaObject = Record<string, unknown>

const inlineRefs = (node: unknown, resolve: (ref: string) => unknown, seen: ReadonlySet<string>): unknown => {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, resolve, seen))
  if (!Predicate.isObject(node)) return node
  const out: JsonSchemaObject = {}
  let target: unknown = undefined
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") {
      if (seen.has(value)) throw new Error(`recursive JSON Schema reference ${value} cannot be inlined`)
      target = inlineRefs(resolve(value), resolve, new Set([...seen, value]))
    } else {
      out[key] = inlineRefs(value, resolve, seen)
    }
  }
  return Predicate.isObject(target) ? { ...target, ...out } : out
}

/**
 * Replaces every `$ref` in a JSON Schema by the schema it points to (the contract's schemas are not
 * recursive), so agents get one self-contained schema. `resolve` maps a reference to its target.
 */
export const inlineJsonSchema = (schema: JsonSchemaObject, resolve: (ref: string) => unknown): JsonSchemaObject => {
  const inlined = inlineRefs(schema, resolve, new Set())
  return Predicate.isObject(inlined) ? { ...inlined } : {}
}

/**
 * The draft 2020-12 JSON Schema of an Effect Schema, generated as `/v1/openapi.json` generates its
 * components (excess properties refused), with references inlined.
 */
export const contractJsonSchema = (schema: Schema.Top): JsonSchemaObject => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  const prefix = "#/$defs/"
  return inlineJsonSchema(document.schema, (ref) =>
    ref.startsWith(prefix) ? document.definitions[ref.slice(prefix.length)] : undefined
  )
}

/**
 * A Standard Schema for the SDK that advertises `jsonSchema` in `tools/list` but accepts any value:
 * the tool handler decodes with the Effect Schema itself so a bad argument becomes the contract's
 * `invalid_input` error instead of the SDK's own wording.
 */
export const advertise = (jsonSchema: JsonSchemaObject): StandardSchemaWithJSON<unknown, unknown> => ({
  "~standard": {
    version: 1,
    vendor: "tenders",
    validate: (value) => ({ value }),
    jsonSchema: { input: () => jsonSchema, output: () => jsonSchema }
  }
})
