import { assert, describe, it } from "@effect/vitest"
import { characterCount, type NoticeKind, recordLimits, textProblem } from "@tenders/core"
import { Result } from "effect"
import { cleanText, fitOptionalText, fitText } from "../src/fitText.ts"
import { fitNotice, type NoticeCandidate, toParsedNotice } from "../src/parsedNotice.ts"

const words = (count: number): string => Array.from({ length: count }, (_, i) => `word${i % 10}`).join(" ")

const candidate = (
  record: Partial<NoticeCandidate["record"]> = {},
  kind: NoticeKind = "original"
): NoticeCandidate => ({
  kind,
  procedureKey: "100-2026",
  version: null,
  reason: null,
  record: {
    id: "ted-100-2026",
    source: "ted",
    nativeId: "100-2026",
    title: "Road works",
    buyer: null,
    country: "FR",
    region: null,
    budget: null,
    currency: null,
    deadline: null,
    publishedAt: null,
    url: "https://ted.europa.eu/en/notice/-/detail/100-2026",
    cpvCodes: [],
    okpd2Codes: [],
    lots: [],
    docsUrl: [],
    ...record
  }
})

describe("cleanText", () => {
  it("makes whitespace runs, tabs and newlines included, one space, and trims", () => {
    assert.strictEqual(cleanText("  Road\t\tworks\r\n\n in  Lyon \u00a0"), "Road works in Lyon")
  })

  it("drops NUL and other control characters and lone surrogates, keeps paired ones", () => {
    assert.strictEqual(cleanText("Ro\u0000ad\u0007 works\u007f\u0085 \ud800😀"), "Road works 😀")
    assert.isUndefined(textProblem(cleanText("a\u0000b\udfffc")))
  })
})

describe("fitText", () => {
  it("keeps text within the bound as it is (cleaned)", () => {
    assert.strictEqual(fitText("Road works", 10), "Road works")
  })

  it("cuts a 3,000-character text at a word boundary with an ellipsis, within the bound", () => {
    const long = words(600)
    assert.isAbove(long.length, 3000)
    const fitted = fitText(long, recordLimits.title)
    assert.isAtMost(characterCount(fitted), recordLimits.title)
    assert.isAbove(characterCount(fitted), recordLimits.title - 10)
    assert.isTrue(fitted.endsWith("…"))
    assert.isTrue(long.startsWith(fitted.slice(0, -1)))
    assert.match(fitted, /word\d…$/u)
  })

  it("cuts mid-word when the text has no space in its second half, counting characters, not UTF-16 units", () => {
    assert.strictEqual(fitText("abcdefghij", 5), "abcd…")
    assert.strictEqual(fitText("😀".repeat(6), 5), `${"😀".repeat(4)}…`)
    assert.strictEqual(fitText("😀".repeat(5), 5), "😀".repeat(5))
  })

  it("gives null for an optional text that cleans to nothing", () => {
    assert.isNull(fitOptionalText(" \u0000\t", 10))
    assert.isNull(fitOptionalText(null, 10))
  })
})

describe("fitNotice / toParsedNotice", () => {
  it("takes the record's status from core's table of kinds", () => {
    const kinds: ReadonlyArray<NoticeKind> = ["original", "amendment", "result", "cancellation"]
    assert.deepStrictEqual(
      kinds.map((kind) => fitNotice(candidate({}, kind)).record.status),
      ["open", "amended", "closed", "cancelled"]
    )
  })

  it("accepts a notice with a 3,000-character title and a NUL in its buyer, shortened and cleaned", () => {
    const notice = toParsedNotice(candidate({ title: words(600), buyer: "Ville\u0000 de\nLyon" }))
    assert.isTrue(Result.isSuccess(notice))
    if (Result.isFailure(notice)) return
    assert.isAtMost(characterCount(notice.success.record.title), recordLimits.title)
    assert.strictEqual(notice.success.record.buyer, "Ville de Lyon")
  })

  it("keeps the first N items of lists beyond their bound and drops unusable document links", () => {
    const codes = Array.from({ length: 600 }, (_, i) => String(10_000_000 + i))
    const docs = Array.from({ length: 250 }, (_, i) => `https://example.org/${i}.pdf`)
    const lots = Array.from({ length: 600 }, (_, i) => ({
      title: `Lot ${i}`,
      budget: null,
      currency: null,
      cpvCodes: codes
    }))
    const notice = toParsedNotice(
      candidate({
        cpvCodes: codes,
        lots,
        docsUrl: ["https://example.org/a\nb.pdf", `https://example.org/${"x".repeat(3000)}`, ...docs]
      })
    )
    assert.isTrue(Result.isSuccess(notice))
    if (Result.isFailure(notice)) return
    const { record } = notice.success
    assert.deepStrictEqual(record.cpvCodes, codes.slice(0, recordLimits.codes))
    assert.strictEqual(record.lots.length, recordLimits.lots)
    assert.strictEqual(record.lots[0]?.cpvCodes.length, recordLimits.codes)
    assert.deepStrictEqual(record.docsUrl, docs.slice(0, recordLimits.docs))
  })

  it("still rejects what no shortening can fix, with the schema's reason", () => {
    const notice = toParsedNotice(candidate({ url: "ftp://example.org" }))
    assert.isTrue(Result.isFailure(notice))
    if (Result.isSuccess(notice)) return
    assert.match(notice.failure, /url/u)
  })
})
