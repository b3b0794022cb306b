import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { html } from "../src/index.ts"

// In HTML text a tag starts only at `<`; a quoted attribute value ends only at its quote. Escaped text with none of
// `<`, `>`, `"`, `'` and every `&` an entity can therefore add no tag and no attribute, and reads back as itself.

const entities: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'"
}
const unescape = (markup: string): string => markup.replace(/&(?:amp|lt|gt|quot|#39);/gu, (e) => entities[e] ?? e)
const unsafe = /[<>"']|&(?!(?:amp|lt|gt|quot|#39);)/u

/** Any text, and texts made of markup: quotes, brackets, entities half-written or whole. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(..."<>&\"'=/ `\n\u0000", "p", "script", "onclick", "amp;", "lt;", "#39;", "#x3C;", "&quot;"),
    maxLength: 20
  })
)

/** The texts of each escaped part, checked to be safe. */
const partsOf = (markup: string, shape: RegExp): ReadonlyArray<string> => {
  const match = shape.exec(markup)
  assert.isNotNull(match, markup)
  const parts = match?.slice(1) ?? []
  for (const part of parts) assert.notMatch(part, unsafe, markup)
  return parts
}

describe("html", () => {
  it("adds no tag and no attribute for an interpolated text, which reads back as itself", () => {
    fc.assert(
      fc.property(text, (s) => {
        const parts = partsOf(html`<p title="${s}">${s}</p>`.markup, /^<p title="([^"]*)">([^<]*)<\/p>$/u)
        assert.deepStrictEqual(parts.map(unescape), [s, s])
      }),
      { numRuns: 1000 }
    )
  })

  it("escapes in single-quoted attributes and in lists of texts alike", () => {
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 4 }), (s, list) => {
        // prettier-ignore
        const parts = partsOf(html`<li data-x='${s}'>${list}</li>`.markup, /^<li data-x='([^']*)'>([^<]*)<\/li>$/u)
        assert.deepStrictEqual(parts.map(unescape), [s, list.join("")])
      }),
      { numRuns: 1000 }
    )
  })
})
