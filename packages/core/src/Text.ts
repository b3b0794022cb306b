import { Schema, type SchemaAST } from "effect"

/**
 * The one rule for text that enters the service (REST, MCP, CLI, import files): well-formed Unicode (no unpaired
 * UTF-16 surrogate) and no control character (Unicode category Cc: U+0000-U+001F, U+007F-U+009F). PostgreSQL
 * cannot store NUL or a lone surrogate, and a CR or LF inside a name or URL only ever does harm.
 */
export const textProblem = (text: string): string | undefined => {
  if (!text.isWellFormed()) return "must not contain an unpaired UTF-16 surrogate"
  if (controlCharacter.test(text)) return "must not contain control characters (U+0000-U+001F, U+007F-U+009F)"
  return undefined
}

// Unicode category Cc, written as ranges so that the JSON Schema pattern below states the same rule.
const controlRanges = "\\u0000-\\u001F\\u007F-\\u009F"
const controlCharacter = new RegExp(`[${controlRanges}]`, "u")

/**
 * The text rule as a JSON Schema `pattern` (ECMA-262, read alike with or without the `u` flag): any character but a
 * control character or a surrogate, or a surrogate pair. Published on every text field, so generated clients know it.
 */
export const textPattern = `^(?:[^${controlRanges}\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$`

/**
 * Why a text shown to a person as a name (an OAuth client's name) is refused: the text rule, and no format
 * character (Unicode Cf: bidirectional overrides and isolates, zero-width characters) nor line or paragraph separator,
 * which can make a name read as something else (U+202E reverses what follows it).
 */
export const labelProblem = (text: string): string | undefined =>
  textProblem(text) ??
  (formatCharacter.test(text) ? "must not contain format characters (Unicode Cf, such as U+202E)" : undefined)

const formatCharacter = /[\p{Cf}\p{Zl}\p{Zp}]/u

/** Characters as JSON Schema counts them (Unicode code points), not UTF-16 code units. */
export const characterCount = (text: string): number => {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    count++
  }
  return count
}

/** The text rule as a schema check. */
export const isText = (): SchemaAST.Check<string> =>
  Schema.makeFilter((text: string) => textProblem(text) ?? true, {
    expected: "a string without control characters",
    toJsonSchema: () => ({ pattern: textPattern })
  })

/** At most `max` characters (code points), published as JSON Schema `maxLength`. */
export const isMaxCharacters = (max: number): SchemaAST.Check<string> =>
  Schema.makeFilter((text: string) => characterCount(text) <= max || `must be at most ${max} characters`, {
    expected: `a string of at most ${max} characters`,
    toJsonSchema: () => ({ maxLength: max })
  })

/** At least `min` characters (code points), published as JSON Schema `minLength`. */
export const isMinCharacters = (min: number): SchemaAST.Check<string> =>
  Schema.makeFilter(
    (text: string) => characterCount(text) >= min || `must be at least ${min} character${min === 1 ? "" : "s"}`,
    {
      expected: `a string of at least ${min} character${min === 1 ? "" : "s"}`,
      toJsonSchema: () => ({ minLength: min })
    }
  )

/** A text field: the text rule, and a length from `min` (default 0) to `max` characters. */
export const Text = (options: { readonly min?: number; readonly max: number }) =>
  Schema.String.check(
    isText(),
    ...(options.min === undefined ? [] : [isMinCharacters(options.min)]),
    isMaxCharacters(options.max)
  )
