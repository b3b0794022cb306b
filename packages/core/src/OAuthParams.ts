/**
 * The parameters of OAuth requests, decoded with Schema at the edge of every endpoint: each given at most once
 * (RFC 6749 §3.1), each text by core's rule, a fault reported as an `OAuthError` naming the parameter.
 */
import { Effect, Option, Schema, SchemaIssue } from "effect"
import { UrlParams } from "effect/http"
import { isText } from "./Text.ts"
import { OAuthError, type OAuthErrorCode } from "./OAuthError.ts"

/** The RFC code of a fault in the parameter (or member) `key`; undefined when the fault is the whole input's. */
export type OAuthCodeOf = (key: string | undefined) => OAuthErrorCode

const issueFormatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a decoding as an `OAuthError`: its path and message, with the code `codeOf` gives its key. */
const oauthErrorOf = (issue: SchemaIssue.Issue, codeOf: OAuthCodeOf) => {
  const [first] = issueFormatter(issue).issues
  const keys = first?.path ?? []
  const path = keys.map((key) => (typeof key === "number" ? `[${key}]` : String(key))).join("")
  const key = keys[0]
  return new OAuthError({
    error: codeOf(key === undefined ? undefined : String(key)),
    description: path === "" ? (first?.message ?? "invalid") : `${path} ${first?.message ?? "is invalid"}`
  })
}

const invalidRequest: OAuthCodeOf = () => "invalid_request"

/** Decodes with `schema`, its first issue as an `OAuthError` with the code `codeOf` gives (`invalid_request`). */
export const decodeOAuthWith =
  <S extends Schema.Top>(schema: S, codeOf: OAuthCodeOf = invalidRequest) =>
  (input: unknown) =>
    Schema.decodeUnknownEffect(schema)(input).pipe(Effect.mapError((error) => oauthErrorOf(error.issue, codeOf)))

/**
 * The parameters of an OAuth request as `schema` decodes them, each given at most once (RFC 6749 §3.1: a parameter
 * given twice is refused, not read as absent); parameters it does not name are ignored. Fails with `invalid_request`,
 * or the code `codeOf` gives the first parameter at fault. Every OAuth endpoint reads its query or form with it.
 */
export const decodeOAuthParams =
  <S extends Schema.Struct<Schema.Struct.Fields>>(schema: S, codeOf: OAuthCodeOf = invalidRequest) =>
  (params: UrlParams.UrlParams): Effect.Effect<S["Type"], OAuthError, S["DecodingServices"]> => {
    const names = Object.keys(schema.fields)
    const repeated = names.filter((name) => UrlParams.getAll(params, name).length > 1)
    if (repeated.length > 0) {
      return Effect.fail(
        new OAuthError({ error: "invalid_request", description: `${repeated.join(", ")} given more than once` })
      )
    }
    const given = names.flatMap((name) =>
      Option.toArray(Option.map(UrlParams.getFirst(params, name), (v) => [name, v]))
    )
    return decodeOAuthWith(schema, codeOf)(Object.fromEntries(given))
  }

/** A parameter's value: text by core's rule (`textProblem`). */
export const ParamText = Schema.String.check(isText())

/** A required parameter: text, not empty. */
export const RequiredParam = ParamText.check(
  Schema.makeFilter((text: string) => (text === "" ? "must not be empty" : true))
).annotateKey({
  messageMissingKey: "is required"
})
