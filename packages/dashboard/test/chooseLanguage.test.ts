import { assert, describe, it } from "@effect/vitest"
import { type UiLanguage, uiLanguages } from "@tenders/core"
import * as fc from "fast-check"
import { chooseLanguage } from "../src/Language.ts"

const isUiLanguage = (code: string | undefined): boolean => uiLanguages.some((ui) => ui === code)

/** Codes that are, or look like, a UI language. */
const code = fc.oneof(
  fc.constantFrom(...uiLanguages),
  fc.constantFrom("EN", "Ru", "hy-AM", "en ", "de", "*", "", "__proto__", "toString"),
  fc.string({ maxLength: 6 })
)
const maybe = <A>(arbitrary: fc.Arbitrary<A>) => fc.option(arbitrary, { nil: undefined })

/** An Accept-Language entry: a tag and its q-value in thousandths (none: 1). */
const entry = fc.record({
  tag: fc.constantFrom("en", "ru", "hy", "de", "fr", "en-GB", "ru-RU", "hy-AM", "EN-us", "Hy", "*", "zh-Hant-TW"),
  q: maybe(fc.integer({ min: 0, max: 1000 }))
})
const headerOf = (entries: ReadonlyArray<{ tag: string; q: number | undefined }>, separator: string) =>
  entries.map(({ tag, q }) => (q === undefined ? tag : `${tag};q=${q / 1000}`)).join(separator)

/** Any header text: well-formed lists, broken ones, and anything. */
const acceptLanguage = fc.oneof(
  fc.tuple(fc.array(entry, { maxLength: 6 }), fc.constantFrom(",", ", ", " ,  ")).map(([es, sep]) => headerOf(es, sep)),
  fc.string({
    unit: fc.constantFrom(
      ..."enruhy-_;=q,. *\t",
      "q=",
      ";q=",
      "0.5",
      "1e3",
      "-1",
      "NaN",
      "Infinity",
      "ru-RU",
      "\u0000"
    ),
    maxLength: 16
  }),
  fc.string({ unit: "binary", maxLength: 40 })
)

describe("chooseLanguage", () => {
  it("answers a UI language for any query, cookie and Accept-Language, without throwing", () => {
    fc.assert(
      fc.property(maybe(code), maybe(code), maybe(acceptLanguage), (query, cookie, header) => {
        assert.include(uiLanguages, chooseLanguage({ query, cookie, acceptLanguage: header }))
      }),
      { numRuns: 1000 }
    )
  })

  it("takes a UI language of the query over the cookie and Accept-Language", () => {
    fc.assert(
      fc.property(fc.constantFrom(...uiLanguages), maybe(code), maybe(acceptLanguage), (query, cookie, header) => {
        assert.strictEqual(chooseLanguage({ query, cookie, acceptLanguage: header }), query)
      }),
      { numRuns: 1000 }
    )
  })

  it("takes a UI language of the cookie over Accept-Language when the query has none", () => {
    fc.assert(
      fc.property(
        maybe(code.filter((c) => !isUiLanguage(c))),
        fc.constantFrom(...uiLanguages),
        maybe(acceptLanguage),
        (query, cookie, header) => {
          assert.strictEqual(chooseLanguage({ query, cookie, acceptLanguage: header }), cookie)
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("otherwise takes the UI language Accept-Language ranks highest, the first of a tie, else English", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.constantFrom(",", ", ", " ,  "), (entries, separator) => {
        let best: { language: UiLanguage; q: number } | undefined
        for (const { tag, q = 1000 } of entries) {
          const language = uiLanguages.find((ui) => ui === tag.toLowerCase().split("-")[0])
          if (language !== undefined && q > 0 && (best === undefined || q > best.q)) best = { language, q }
        }
        const header = headerOf(entries, separator)
        const chosen = chooseLanguage({ query: undefined, cookie: "xx", acceptLanguage: header })
        assert.strictEqual(chosen, best?.language ?? "en", header)
      }),
      { numRuns: 1000 }
    )
  })
})
