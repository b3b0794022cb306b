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

const controlCharacter = /\p{Cc}/u

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
export const isText = (): SchemaAST.Check<string> => Schema.makeFilter((text: string) => textProblem(text) ?? true)

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
