import { assert, describe, it } from "@effect/vitest"
import { Exit, Option, Schema } from "effect"
import { parseInstant, SearchRequest, TenderRecord, WatchlistInput } from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"

const decodes = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown) =>
  Exit.isSuccess(Schema.decodeUnknownExit(schema)(value))

const emoji = (n: number) => "😀".repeat(n)

describe("input rules: every text and instant that reaches SQL is one the store can hold", () => {
  it("refuses deadlineAfter outside 0001-01-01 to 9999-12-31 in UTC, and accepts its edges", () => {
    for (const outside of ["0000-01-01", "0001-01-01T00:00+01:00", "9999-12-31T23:00-05:00"]) {
      assert.isTrue(Option.isNone(parseInstant(outside)), outside)
      assert.isFalse(decodes(SearchRequest, { q: "road", deadlineAfter: outside }), outside)
      assert.isFalse(decodes(WatchlistInput, { name: "w", filters: { q: "road", deadlineAfter: outside } }), outside)
    }
    for (const edge of ["0001-01-01", "0001-01-01T00:00Z", "9999-12-31", "9999-12-31T23:59:59.999Z"]) {
      assert.isTrue(decodes(SearchRequest, { q: "road", deadlineAfter: edge }), edge)
    }
  })

  it("refuses NUL, other control characters and lone surrogates in every text field, in search and watchlists", () => {
    for (const bad of ["road\u0000", "road\ud800", "\udc00x", "line\nbreak", "tab\there", "del\u007f", "c1\u0085"]) {
      assert.isFalse(decodes(SearchRequest, { q: bad }), JSON.stringify(bad))
      assert.isFalse(decodes(WatchlistInput, { name: bad, filters: { q: "road" } }), JSON.stringify(bad))
      assert.isFalse(decodes(WatchlistInput, { name: "w", filters: { q: bad } }), JSON.stringify(bad))
      const webhook = `https://hooks.example.com/${bad}`
      assert.isFalse(decodes(WatchlistInput, { name: "w", filters: { q: "road" }, channels: { webhook } }), webhook)
    }
    assert.isTrue(decodes(SearchRequest, { q: "ремонт дорог 😀 ճանապարհ" }))
  })

  it("counts lengths in characters, as the published JSON Schema does, not UTF-16 code units", () => {
    assert.isTrue(decodes(SearchRequest, { q: emoji(500) }))
    assert.isFalse(decodes(SearchRequest, { q: emoji(501) }))
    assert.isTrue(decodes(WatchlistInput, { name: emoji(100), filters: { q: "road" } }))
    assert.isFalse(decodes(WatchlistInput, { name: emoji(101), filters: { q: "road" } }))
    assert.isFalse(decodes(WatchlistInput, { name: "", filters: { q: "road" } }))
    const document = Schema.toJsonSchemaDocument(SearchRequest)
    assert.deepInclude(JSON.stringify(document), '"maxLength":500')
  })

  it("bounds every text field and list of a normalised record, so an oversized record is refused, not stored", () => {
    const record = Schema.encodeSync(TenderRecord)(makeRecord({ id: "ted-1-2026" }))
    assert.isTrue(decodes(TenderRecord, record))
    const refused = [
      { title: "x".repeat(16 * 1024 * 1024) },
      { title: "x".repeat(2_001) },
      { buyer: "b".repeat(1_001) },
      { title: "Road\u0000works" },
      { url: `https://example.com/${"p".repeat(2_048)}` },
      { deadline: "0000-01-01T00:00:00Z" },
      { deadline: "2026-02-30T00:00:00Z" },
      { budget: "1".repeat(41) },
      { lots: Array.from({ length: 501 }, () => ({ title: "lot", budget: null, currency: null, cpvCodes: [] })) }
    ]
    for (const change of refused) {
      assert.isFalse(decodes(TenderRecord, { ...record, ...change }), Object.keys(change).join())
    }
  })
})
