import { characterCount, type ParsedNotice, recordLimits } from "@tenders/core"
import { Predicate } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { parseTedSearchResponse, tedNextToken } from "../src/ted/parse.ts"

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "ted", name), "utf8"))

const okNotices = (body: unknown): ReadonlyArray<ParsedNotice> => {
  const result = parseTedSearchResponse(body)
  expect(result.rejected).toEqual([])
  return result.notices
}

/** A minimal valid competition notice; `extra` overrides or adds fields. */
const notice = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  "publication-number": "100-2026",
  "publication-date": "2026-07-13+02:00",
  "notice-type": "cn-standard",
  "form-type": "competition",
  "notice-title": { eng: "Title" },
  ...extra
})

const one = (extra: Record<string, unknown>): ParsedNotice => {
  const [first, ...rest] = okNotices({ notices: [notice(extra)] })
  expect(rest).toEqual([])
  if (first === undefined) throw new Error("no notice parsed")
  return first
}

describe("parseTedSearchResponse: real capture vs expected-cards.json", () => {
  const notices = okNotices(fixture("search-response-de-competition-and-result.json"))
  const raw: unknown = fixture("expected-cards.json")
  const cards = Predicate.isObject(raw) && Array.isArray(raw["cards"]) ? raw["cards"].filter(Predicate.isObject) : []

  it("parses both notices", () => {
    expect(notices.map((n) => n.kind)).toEqual(["original", "result"])
    expect(notices.map((n) => n.version)).toEqual([null, null])
    // No procedure-identifier in this capture: the publication number is the key.
    expect(notices.map((n) => n.procedureKey)).toEqual(["479730-2026", "291981-2026"])
  })

  // Fields the guide's mapping defines and the TenderRecord carries, compared as they are.
  const same = ["title", "buyer", "country", "budget", "currency", "url", "region", "status", "cpvCodes", "okpd2Codes"]
  it("has the two expected cards", () => expect(cards).toHaveLength(2))
  cards.forEach((card, i) => {
    const id = String(card["id"])
    it(`matches card ${id}`, () => {
      const record = notices[i]?.record
      if (record === undefined) throw new Error(`missing record ${i}`)
      // expected-cards uses the bare native id; the record id is `ted-<n>` (docs/sample-data.md, TenderId).
      expect(record.id).toBe(`ted-${id}`)
      expect(record.nativeId).toBe(id)
      const view: Record<string, unknown> = { ...record }
      for (const field of same) expect([field, view[field]]).toEqual([field, card[field]])
      // Same instants; the record format has no milliseconds (`...:59Z`, docs/sample-data.md).
      const noMillis = (v: unknown) => (Predicate.isString(v) ? v.replace(".000Z", "Z") : v)
      expect(record.deadline).toBe(noMillis(card["deadline"]))
      expect(record.publishedAt).toBe(noMillis(card["publishedAt"]))
      // subject and lotsCount are card fields the TenderRecord does not carry.
    })
  })

  it("lots and docsUrl follow the brief/guide where expected-cards.json differs", () => {
    const [competition, result] = notices
    // expected-cards lists titles-only lots, but estimated-value-lot/-cur-lot are absent here, so the
    // arrays do not align with identifier-lot and the rule "zip only when all lengths match, else []" applies.
    expect(competition?.record.lots).toEqual([])
    expect(result?.record.lots).toEqual([])
    // docsUrl is a list in TenderRecord. Card 1: submission-url-lot (as expected). Card 2: expected-cards says
    // null, but the guide's chain ends with links.pdf.ENG, which this notice has.
    expect(competition?.record.docsUrl).toEqual(["https://www.evergabe-online.de/tenderdetails.html?id=874855"])
    expect(result?.record.docsUrl).toEqual(["https://ted.europa.eu/en/notice/291981-2026/pdf"])
  })
})

describe("parseTedSearchResponse: other fixtures", () => {
  it("reads the per-language links capture", () => {
    const [n] = okNotices(fixture("search-response-es-links-per-language.json"))
    expect(n?.kind).toBe("original")
    expect(n?.record).toMatchObject({
      id: "ted-412169-2016",
      title: "Software licences and support",
      buyer: "Achilles South Europe, S.L.U.",
      country: null,
      url: "https://ted.europa.eu/en/notice/-/detail/412169-2016",
      deadline: "2026-12-01T22:59:59Z",
      publishedAt: "2016-11-22T23:00:00Z",
      docsUrl: [],
      lots: []
    })
  })

  it("links original, change and cancel notices of one procedure", () => {
    const notices = okNotices(fixture("RECONSTRUCTED-search-response-original-change-cancel.json"))
    expect(notices.map((n) => [n.kind, n.reason, n.record.status, n.version])).toEqual([
      ["original", null, "open", 1],
      ["amendment", "update-add", "amended", 1],
      ["cancellation", "cancel", "cancelled", 1]
    ])
    expect(new Set(notices.map((n) => n.procedureKey))).toEqual(new Set(["4805c409-5939-4be9-8abd-837f7a5fee23"]))
    expect(notices.map((n) => n.record.id)).toEqual(["ted-12345-2019", "ted-23456-2020", "ted-34567-2020"])
    expect(notices.map((n) => n.record.deadline)).toEqual([
      "2020-02-04T08:00:00Z",
      "2020-02-18T09:00:00Z",
      "2020-02-04T21:59:59Z"
    ])
    const [original, amendment, cancellation] = notices
    expect(original?.record).toMatchObject({
      nativeId: "12345-2019",
      buyer: "Publications Office of the European Union",
      country: "LU",
      region: "FRD22",
      budget: "4500000",
      currency: "EUR",
      publishedAt: "2019-11-25T23:00:00Z",
      cpvCodes: ["72230000"],
      lots: [
        {
          title: "Provision of IT Services Related to OP IT Systems (EUR-Lex, N-Lex, Search Layer, and Others)",
          budget: "4500000",
          currency: "EUR",
          cpvCodes: []
        }
      ],
      docsUrl: ["https://etendering.ted.europa.eu/cft/cft-display.html?cftId=5629"]
    })
    // No title-lot in the change notice: lots do not align, but the one-currency lot sum still gives a budget.
    expect(amendment?.record).toMatchObject({ lots: [], budget: "4500000", currency: "EUR" })
    expect(cancellation?.record).toMatchObject({ lots: [], budget: null, currency: null, region: null })
  })

  it("rejects the 400 error body as a whole", () => {
    const result = parseTedSearchResponse(fixture("error-400-query-syntax.json"))
    expect(result.notices).toEqual([])
    expect(result.rejected).toHaveLength(1)
    expect(result.rejected[0]?.reason).toMatch(/not a TED search response.*Syntax error/u)
  })
})

describe("parseTedSearchResponse: value shapes and edge cases", () => {
  it("treats {} values as empty", () => {
    const n = one({
      "buyer-name": {},
      "buyer-city": {},
      "buyer-country": {},
      "classification-cpv": {},
      "estimated-value-proc": {},
      "title-lot": {},
      links: {}
    })
    expect(n.record).toMatchObject({ buyer: null, country: null, cpvCodes: [], budget: null, lots: [], docsUrl: [] })
    expect(n.record.url).toBe("https://ted.europa.eu/en/notice/-/detail/100-2026")
  })

  it("keeps unique 8-digit CPV codes only, main procedure code first", () => {
    const n = one({
      "main-classification-proc": ["90910000"],
      "classification-cpv": ["72230000", "72230000", "7223000", "72230000-1", "90910000", 45233222, "CPV"]
    })
    expect(n.record.cpvCodes).toEqual(["90910000", "72230000", "45233222"])
  })

  it("picks eng, then the official language, then the first language", () => {
    expect(one({ "notice-title": { deu: "Titel", eng: "Title EN" } }).record.title).toBe("Title EN")
    expect(one({ "notice-title": { deu: "Titel", fra: "Titre" }, "official-language": ["FRA"] }).record.title).toBe(
      "Titre"
    )
    expect(one({ "notice-title": { deu: "Titel", fra: "Titre" } }).record.title).toBe("Titel")
    expect(one({ "notice-title": {}, "title-proc": { swe: "Upphandling" } }).record.title).toBe("Upphandling")
    expect(one({ "buyer-name": { eng: [], ron: ["Primăria X", "Other"] } }).record.buyer).toBe("Primăria X")
    expect(one({ "buyer-name": {}, "organisation-name-buyer": { deu: ["Stadt Y"] } }).record.buyer).toBe("Stadt Y")
  })

  it("zips lots only when the four lot arrays align with identifier-lot", () => {
    const aligned = {
      "identifier-lot": ["LOT-0001", "LOT-0002"],
      "title-lot": { eng: ["Only one translated"], deu: ["Los 1", "Los 2"] },
      "estimated-value-lot": ["100.50", 200],
      "estimated-value-cur-lot": ["EUR", "EUR"],
      "main-classification-lot": ["72230000", "79713000"]
    }
    const n = one(aligned)
    expect(n.record.lots).toEqual([
      { title: "Los 1", budget: "100.50", currency: "EUR", cpvCodes: ["72230000"] },
      { title: "Los 2", budget: "200", currency: "EUR", cpvCodes: ["79713000"] }
    ])
    expect(n.record).toMatchObject({ budget: "300.5", currency: "EUR" })
    const misaligned = one({ ...aligned, "estimated-value-lot": ["100.50"], "estimated-value-cur-lot": ["EUR"] })
    expect(misaligned.record).toMatchObject({ lots: [], budget: null, currency: null })
    expect(one({ ...aligned, "title-lot": { deu: ["Los 1"] } }).record.lots).toEqual([])
  })

  it("never sums lots in different currencies", () => {
    const n = one({
      "identifier-lot": ["LOT-0001", "LOT-0002"],
      "title-lot": { ron: ["A", "B"] },
      "estimated-value-lot": ["100", "200"],
      "estimated-value-cur-lot": ["EUR", "RON"]
    })
    expect(n.record).toMatchObject({ budget: null, currency: null })
    expect(n.record.lots.map((l) => [l.budget, l.currency])).toEqual([
      ["100", "EUR"],
      ["200", "RON"]
    ])
    const withGlo = one({
      "estimated-value-lot": ["100", "200"],
      "estimated-value-cur-lot": ["EUR", "RON"],
      "estimated-value-glo": "5000",
      "estimated-value-cur-glo": "EUR"
    })
    expect(withGlo.record).toMatchObject({ budget: "5000", currency: "EUR" })
  })

  it("reads budgets as strings or numbers without float formatting", () => {
    const budget = (value: unknown, cur: unknown = "EUR") =>
      one({ "estimated-value-proc": value, "estimated-value-cur-proc": cur }).record
    expect(budget("1449834.71")).toMatchObject({ budget: "1449834.71", currency: "EUR" })
    expect(budget(1449834.71, ["SEK"])).toMatchObject({ budget: "1449834.71", currency: "SEK" })
    expect(budget(["12345678901234567890.10"])).toMatchObject({ budget: "12345678901234567890.10" })
    expect(budget("1 234 567,50")).toMatchObject({ budget: "1234567.50" })
    expect(budget(250000, "ron")).toMatchObject({ budget: "250000", currency: "RON" })
    // String(1e21) is "1e+21": that value is refused, the notice is kept without a budget.
    expect(budget(1e21)).toMatchObject({ budget: null, currency: null })
    expect(budget("n/a")).toMatchObject({ budget: null, currency: null })
    expect(budget("100", "euro")).toMatchObject({ budget: "100", currency: null })
  })

  it("uses total-value for result notices only", () => {
    const fields = { "total-value": 320649.86, "total-value-cur": ["EUR"] }
    expect(one({ ...fields, "form-type": "result", "notice-type": "can-standard" }).record).toMatchObject({
      budget: "320649.86",
      currency: "EUR",
      status: "closed"
    })
    expect(one(fields).record).toMatchObject({ budget: null, currency: null })
  })

  it("combines dates and times into UTC, earliest lot wins", () => {
    const deadline = (extra: Record<string, unknown>) => one(extra).record.deadline
    expect(deadline({ "deadline-receipt-tender-date-lot": ["2026-08-10+02:00"] })).toBe("2026-08-10T21:59:59Z")
    expect(deadline({ "deadline-receipt-tender-date-lot": "2026-01-10Z" })).toBe("2026-01-10T23:59:59Z")
    expect(
      deadline({
        "deadline-receipt-tender-date-lot": ["2026-08-10+02:00", "2026-08-03+02:00"],
        "deadline-receipt-tender-time-lot": ["12:00:00+02:00", "09:30:00+02:00"]
      })
    ).toBe("2026-08-03T07:30:00Z")
    // Times that cannot be matched to dates are ignored: every date is date-only (never close early).
    expect(
      deadline({
        "deadline-receipt-tender-date-lot": ["2026-08-10+02:00", "2026-08-03+02:00"],
        "deadline-receipt-tender-time-lot": ["12:00:00+02:00"]
      })
    ).toBe("2026-08-03T21:59:59Z")
    expect(
      deadline({
        "deadline-receipt-tender-date-lot": ["2026-02-30+01:00", "garbage"],
        "deadline-receipt-request-date-lot": ["2026-03-01+01:00"],
        "deadline-receipt-request-time-lot": ["10:00:00+01:00"]
      })
    ).toBe("2026-03-01T09:00:00Z")
    expect(one({ "publication-date": "2026-01-05Z" }).record.publishedAt).toBe("2026-01-05T00:00:00Z")
    expect(one({ "publication-date": "not a date" }).record.publishedAt).toBeNull()
  })

  it("keeps a notice with a 3,000-character title (cut at a word boundary) and a NUL in its buyer (dropped)", () => {
    const title = Array.from({ length: 600 }, (_, i) => `word${i % 10}`).join(" ")
    const parsed = one({ "notice-title": { eng: title }, "buyer-name": { eng: "Ville\u0000 de\tLyon" } })
    expect(characterCount(parsed.record.title)).toBeLessThanOrEqual(recordLimits.title)
    expect(parsed.record.title).toMatch(/^word0 word1 .* word\d…$/u)
    expect(parsed.record.buyer).toBe("Ville de Lyon")
  })

  it("maps countries alpha-3 -> alpha-2, unknown -> null", () => {
    expect(one({ "buyer-country": ["ROU", "DEU"] }).record.country).toBe("RO")
    expect(one({ "buyer-country": ["ISL"] }).record.country).toBe("IS")
    expect(one({ "buyer-country": ["XYZ"] }).record.country).toBeNull()
  })

  it("normalises ids, region, links, docsUrl and version", () => {
    const n = one({
      "publication-number": "00512345-2026",
      "notice-version": "02",
      "place-of-performance": ["DEU", "DE4", "DEA23", "DEB39"],
      links: { html: { DEU: "https://ted.europa.eu/de/notice/-/detail/512345-2026" }, pdf: { DEU: "x" } },
      "submission-url-lot": ["https://submit.example/1"],
      "document-url-lot": [],
      "procedure-identifier": "proc-1"
    })
    expect(n).toMatchObject({ procedureKey: "proc-1", version: 2 })
    expect(n.record).toMatchObject({
      id: "ted-512345-2026",
      nativeId: "512345-2026",
      region: "DEA23",
      url: "https://ted.europa.eu/de/notice/-/detail/512345-2026",
      docsUrl: ["https://submit.example/1"]
    })
    expect(one({ links: { pdf: { ENG: "https://ted.europa.eu/en/notice/1-2026/pdf" } } }).record.docsUrl).toEqual([
      "https://ted.europa.eu/en/notice/1-2026/pdf"
    ])
  })

  it("classifies kinds and skips planning notices", () => {
    const kinds = okNotices({
      notices: [
        notice({ "notice-type": "pin-only", "form-type": "planning" }),
        notice({ "notice-type": "pin-buyer" }),
        notice({ "notice-type": "veat", "form-type": "dir-awa-pre" }),
        notice({ "notice-type": "can-modif", "form-type": "cont-modif" }),
        notice({ "notice-type": "compl", "form-type": "completion" }),
        notice({ "notice-type": "pin-cfc-standard", "form-type": "competition" }),
        notice({ "change-notice-version-identifier": "abc-01" }),
        notice({ "change-notice-version-identifier": ["abc-01"], "change-reason-code": ["cor-buy", "cor-buy"] }),
        notice({
          "form-type": "result",
          "change-notice-version-identifier": ["abc-01"],
          "change-reason-code": "cancel"
        })
      ]
    }).map((n) => [n.kind, n.reason, n.record.status])
    expect(kinds).toEqual([
      ["result", null, "closed"],
      ["result", null, "closed"],
      ["result", null, "closed"],
      ["original", null, "open"],
      ["amendment", null, "amended"],
      ["amendment", "cor-buy", "amended"],
      ["cancellation", "cancel", "cancelled"]
    ])
  })

  it("rejects bad notices with a reason and keeps the good ones", () => {
    const result = parseTedSearchResponse({
      notices: [
        notice(),
        "not an object",
        notice({ "publication-number": {} }),
        notice({ "notice-title": {}, "title-proc": { deu: "" } }),
        notice({ "publication-number": "12345/2026" })
      ]
    })
    expect(result.notices).toHaveLength(1)
    expect(result.rejected.map((r) => r.where)).toEqual([
      "ted notices[1]",
      "ted notices[2]",
      "ted notices[3] 100-2026",
      "ted notices[4] 12345/2026"
    ])
    expect(result.rejected[0]?.reason).toBe("notice is not an object")
    expect(result.rejected[1]?.reason).toBe("missing publication-number")
    expect(result.rejected[2]?.reason).toBe("missing notice-title and title-proc")
    expect(result.rejected[3]?.reason).toMatch(/^invalid record: .*id/u)
  })

  it("handles empty and garbage bodies", () => {
    expect(parseTedSearchResponse({ notices: [], totalNoticeCount: 0 })).toEqual({ notices: [], rejected: [] })
    for (const garbage of [null, undefined, "text", 42, [], { notices: "no" }, { foo: 1 }]) {
      const result = parseTedSearchResponse(garbage)
      expect(result.notices).toEqual([])
      expect(result.rejected).toHaveLength(1)
    }
  })
})

describe("tedNextToken", () => {
  it("returns the iteration token or null", () => {
    expect(tedNextToken({ notices: [], iterationNextToken: "abc" })).toBe("abc")
    expect(tedNextToken({ notices: [], iterationNextToken: "" })).toBeNull()
    expect(tedNextToken({ notices: [], iterationNextToken: null })).toBeNull()
    expect(tedNextToken(fixture("search-response-de-competition-and-result.json"))).toBeNull()
    expect(tedNextToken("garbage")).toBeNull()
  })
})
