import { characterCount, ParsedNotice, recordLimits } from "@tenders/core"
import { Predicate, Result, Schema } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { gnumnerId, parseArmepsDetail, parseEauctionDetail, parseGnumnerListing } from "../src/gnumner/index.ts"
import { cpvNames } from "../src/gnumner/values.ts"
import { canonicalCode } from "../src/gnumner/code.ts"
import { normalizeAmount, yerevanToUtc } from "../src/gnumner/values.ts"

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/gnumner/${name}`, import.meta.url), "utf8")

const AUCTION_PAGE = "https://gnumner.minfin.am/hy/page/elektronayin_achurdi_haytararutyun_ev_hraver/1"
const CHANGES_PAGE = "https://gnumner.minfin.am/hy/page/hraverum_katarvats_popokhutyunner/1"
const FAILED_PAGE = "https://gnumner.minfin.am/hy/page/chkayacats_gnman_yntacakargi_masin_haytararutyunner/1"
const RU_PAGE = "https://gnumner.minfin.am/ru/page/obyavlenie_i_priglashenie_na_elektronnyi_auktcion/"
const ARMEPS_URL = "https://armeps.am/epps/cft/listContractDocuments.do?resourceId=12486627"
const EAUCTION_URL = "https://eauction.armeps.am/hy/public/tender_details/tmid/d903e27c-3159-45ae-be43-6f33a82068ba"

const listing = (file: string, section: string, pageUrl: string) =>
  parseGnumnerListing(fixture(file), { section, pageUrl })

const valid = (notice: unknown): boolean => Result.isSuccess(Schema.decodeUnknownResult(ParsedNotice)(notice))

/** A tiny listing page with one item. */
const onePage = (title: string, time: string, href = "https://gnumner.minfin.am/website/images/original/x.pdf") =>
  `<div class="tender"><div class="tender_title"><p><a href="${href}">${title}</a></p></div>` +
  `<div class="tender_date"><p class="tender_time">${time}</p></div></div>`

describe("gnumner listing pages", () => {
  it("parses the e-auction section page into open originals", () => {
    const { notices, rejected } = listing(
      "RECONSTRUCTED_listing-page_elektronayin_achurdi.html",
      "elektronayin_achurdi_haytararutyun_ev_hraver",
      AUCTION_PAGE
    )
    expect(rejected).toEqual([])
    expect(notices.map((n) => n.record.nativeId)).toEqual([
      "ԵՔ-ԷԱՃԾՁԲ-26/148",
      "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107",
      "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12"
    ])
    expect(notices.every(valid)).toBe(true)
    const [eauction, armeps, file] = notices
    expect(eauction).toMatchObject({ kind: "original", version: null, reason: null, procedureKey: "ԵՔ-ԷԱՃԾՁԲ-26/148" })
    expect(eauction?.record).toMatchObject({
      id: "gnumner-ek-eachtsdzb-26-148",
      source: "gnumner",
      title: "Արխիվացման ծառայությունների ձեռքբերում",
      status: "open",
      country: "AM",
      region: "Երևան",
      buyer: null,
      budget: null,
      // Yerevan 16:53:27 / 09:00:00 (UTC+4) -> UTC
      publishedAt: "2026-09-25T12:53:27Z",
      deadline: "2026-10-06T05:00:00Z",
      url: EAUCTION_URL,
      docsUrl: [],
      lots: [],
      cpvCodes: [],
      okpd2Codes: []
    })
    expect(armeps?.record).toMatchObject({
      id: "gnumner-amah-ap-ghapdzb-26-107",
      url: ARMEPS_URL,
      docsUrl: [ARMEPS_URL]
    })
    expect(file?.record).toMatchObject({
      id: "gnumner-hh-fn-eachapdzb-26-12",
      deadline: "2026-10-02T07:10:00Z",
      docsUrl: ["https://gnumner.minfin.am/website/images/original/36f98164.docx"]
    })
  })

  it("links the amendment to the original by procedureKey and id", () => {
    const originals = listing(
      "RECONSTRUCTED_listing-page_elektronayin_achurdi.html",
      "elektronayin_achurdi_haytararutyun_ev_hraver",
      AUCTION_PAGE
    ).notices
    const { notices, rejected } = listing(
      "RECONSTRUCTED_listing-page_hraverum_katarvats_popokhutyunner.html",
      "hraverum_katarvats_popokhutyunner",
      CHANGES_PAGE
    )
    expect(rejected).toEqual([])
    const amendment = notices.find((n) => n.procedureKey === "ՀՀ ՖՆ-ԷԱՃԱՊՁԲ-26/12")
    const original = originals.find((n) => n.procedureKey === amendment?.procedureKey)
    expect(amendment).toMatchObject({ kind: "amendment", reason: null, record: { status: "amended" } })
    expect(amendment?.record.id).toBe(original?.record.id)
    expect(amendment?.record.deadline).toBe("2026-10-07T07:10:00Z")
  })

  it("links a failed-procedure notice to the ARMEPS tender as a cancellation without a deadline", () => {
    // The fixture page holds blocks of two sections; parsed as the failed-procedures section.
    const { notices } = listing(
      "RECONSTRUCTED_listing-page_hraverum_katarvats_popokhutyunner.html",
      "chkayacats_gnman_yntacakargi_masin_haytararutyunner",
      FAILED_PAGE
    )
    const failed = notices.find((n) => n.record.nativeId === "ԵՔ-ԷԱՃԱՊՁԲ-26/45")
    const tender = parseArmepsDetail(fixture("RECONSTRUCTED_armeps-listContractDocuments-with-value.html"), {
      url: "https://armeps.am/epps/cft/listContractDocuments.do?resourceId=12490001"
    }).notices[0]
    expect(failed).toMatchObject({
      kind: "cancellation",
      reason: "failed",
      record: { status: "cancelled", deadline: null }
    })
    expect(failed?.record.publishedAt).toBe("2026-10-06T11:02:40Z")
    expect(failed?.procedureKey).toBe(tender?.procedureKey)
    expect(failed?.record.id).toBe(tender?.record.id)
  })

  it("maps result sections to closed results and skips clarifications", () => {
    const html = onePage("[ԵՔ-ԷԱՃԾՁԲ-26/148] Պայմանագիր", "(Հրապարակված է 2026-11-01 10:00:00)")
    const result = parseGnumnerListing(html, {
      section: "knqvats_paymanagri_masin_haytararutyun",
      pageUrl: AUCTION_PAGE
    })
    expect(result.notices[0]).toMatchObject({ kind: "result", record: { status: "closed", deadline: null } })
    const clarifications = parseGnumnerListing(html, {
      section: "hraveri_veraberyal_tramadrvats_parzabanumneri_masin_haytararutyun_1",
      pageUrl: AUCTION_PAGE
    })
    expect(clarifications).toEqual({ notices: [], rejected: [] })
    const unknown = parseGnumnerListing(html, { section: "no_such_section", pageUrl: AUCTION_PAGE })
    expect(unknown.notices).toEqual([])
    expect(unknown.rejected[0]?.reason).toMatch(/unknown gnumner section/u)
  })

  it("reads the Russian UI: times, open-ended items, relative links, code spellings, missing codes", () => {
    const { notices, rejected } = listing(
      "INVENTED_listing-page-ru_obyavlenie_i_priglashenie_na_elektronnyi_auktcion.html",
      "obyavlenie_i_priglashenie_na_elektronnyi_auktcion",
      RU_PAGE
    )
    expect(notices).toHaveLength(3)
    expect(notices.every(valid)).toBe(true)
    const [first, openEnded, respelled] = notices
    expect(first?.record).toMatchObject({
      title: "Приобретение компьютерной техники",
      publishedAt: "2026-09-25T14:59:34Z",
      deadline: "2026-10-02T07:10:00Z",
      url: "https://gnumner.minfin.am/website/images/original/5e0c1a2b.pdf"
    })
    // Yerevan 23:30 on 31 Dec is 19:30 UTC the same day; "Бессрочный" -> no deadline.
    expect(openEnded?.record).toMatchObject({
      title: "Услуги по уборке помещений",
      publishedAt: "2026-12-31T19:30:00Z",
      deadline: null
    })
    expect(openEnded?.record.region).toBe(null)
    expect(respelled?.procedureKey).toBe(first?.procedureKey)
    expect(respelled?.record.id).toBe("gnumner-hh-fn-eachapdzb-26-12")
    expect(rejected).toHaveLength(1)
    expect(rejected[0]?.reason).toMatch(/no procurement code/u)
  })

  it("normalises code spellings: spaces, ՀՀ forms, dashes, Latin look-alikes", () => {
    const key = "ՀՀ ՏԿԵՆ-ԲՄԱՇՁԲ-26/5"
    for (const spelling of [
      "ՀՀ ՏԿԵՆ ԲՄԱՇՁԲ-26/5",
      " ՀՀ  ՏԿԵՆ - ԲՄԱՇՁԲ - 26 / 5 ",
      "Հ.Հ. ՏԿԵՆ-ԲՄԱՇՁԲ-26/5",
      "ՀՀՏԿԵՆ-ԲՄԱՇՁԲ-26/5",
      "ՀՀ SԿԵՆ–ԲՄԱՇՁԲ-26/5",
      "ՀՀ\u00a0ՏԿԵՆ-ԲՄԱՇՁԲ-26/5",
      "ՀՀ ՏԿԵՆ-ԲՄԱՇՁԲ-26/5".normalize("NFD")
    ]) {
      expect(canonicalCode(spelling)).toBe(key)
      expect(gnumnerId(spelling)).toBe("gnumner-hh-tken-bmashdzb-26-5")
    }
    expect(canonicalCode("ԵՔ-ԷԱՃԾՁԲ-26/148")).toBe("ԵՔ-ԷԱՃԾՁԲ-26/148")
    expect(canonicalCode("ԵՔ-ԷԱՃԾՁԲ-26/1O8")).toBe("ԵՔ-ԷԱՃԾՁԲ-26/1O8") // digits-only token: Latin O left alone
    expect(canonicalCode("ՍOՒՔ-ԳՀԾՁԲ-26/3")).toBe("ՍՕՒՔ-ԳՀԾՁԲ-26/3")
    const page = onePage(
      "[ ՀՀ  SԿԵՆ  ԲՄԱՇՁԲ-26/5 ]  Ճանապարհի նորոգում",
      "(Հրապարակված է 2026-09-01 09:00:00-ից մինչև 2026-09-20 18:00:00)"
    )
    const notice = parseGnumnerListing(page, { section: "bac_mrcuyti_haytararutyun_ev_hraver", pageUrl: AUCTION_PAGE })
      .notices[0]
    expect(notice?.procedureKey).toBe(key)
    expect(notice?.record).toMatchObject({
      nativeId: "ՀՀ SԿԵՆ ԲՄԱՇՁԲ-26/5",
      title: "Ճանապարհի նորոգում",
      deadline: "2026-09-20T14:00:00Z"
    })
  })

  it("agrees with the sample-data transliteration", () => {
    expect(gnumnerId("ՀՀ ՖՆ ԷԱՃԱՊՁԲ-26/15")).toBe("gnumner-hh-fn-eachapdzb-26-15")
    expect(gnumnerId("ՀՏԶՀ-ԲՄԱՇՁԲ-26/10")).toBe("gnumner-htzh-bmashdzb-26-10")
    expect(gnumnerId("ՀՀ ՍՄՊ-ԲՄԱՇՁԲ-26/14")).toBe("gnumner-hh-smp-bmashdzb-26-14")
    expect(gnumnerId("ՀՀ ՖՆ ԷԱՃԾՁԲ-26/47")).toBe("gnumner-hh-fn-eachtsdzb-26-47")
  })

  it("keeps an item with a 3,000-character title (shortened) and a NUL in it (dropped)", () => {
    const options = { section: "elektronayin_achurdi_haytararutyun_ev_hraver", pageUrl: AUCTION_PAGE }
    const long = Array.from({ length: 500 }, () => "Գնում").join(" ")
    const result = parseGnumnerListing(onePage(`[ԵՔ-ԷԱՃԾՁԲ-26/1] Նոր\u0000 ${long}`, ""), options)
    expect(result.rejected).toEqual([])
    const title = result.notices[0]?.record.title ?? ""
    expect(title).toMatch(/^Նոր Գնում Գնում .*Գնում…$/u)
    expect(characterCount(title)).toBeLessThanOrEqual(recordLimits.title)
  })

  it("never throws on garbage, empty pages or pages without div.tender", () => {
    const options = { section: "elektronayin_achurdi_haytararutyun_ev_hraver", pageUrl: AUCTION_PAGE }
    for (const html of [
      "",
      "<<<>>>",
      "<div class='tender'><div class='tender_title'><p>",
      "\u0000\uFFFF</html>",
      "<html><body>404</body></html>"
    ]) {
      const result = parseGnumnerListing(html, options)
      expect(result.notices).toEqual([])
      expect(parseArmepsDetail(html, { url: ARMEPS_URL }).notices).toEqual([])
      expect(parseEauctionDetail(html, { url: EAUCTION_URL }).notices).toEqual([])
    }
    const noLink = parseGnumnerListing("<div class='tender'><p class='tender_time'>x</p></div>", options)
    expect(noLink.rejected).toHaveLength(1)
    const badUrl = parseGnumnerListing(onePage("[ԵՔ-ԷԱՃԾՁԲ-26/1] x", "", "javascript:void(0)"), options)
    expect(badUrl.rejected[0]?.reason).toMatch(/resource URL/u)
    const noTitle = parseGnumnerListing(onePage("[ԵՔ-ԷԱՃԾՁԲ-26/1]", ""), options)
    expect(noTitle.rejected[0]?.reason).toMatch(/no title/u)
    const badDate = parseGnumnerListing(
      onePage("[ԵՔ-ԷԱՃԾՁԲ-26/1] x", "(2026-02-30 10:00:00-ից մինչև 2026-13-01 10:00)"),
      options
    )
    expect(badDate.notices[0]?.record).toMatchObject({ publishedAt: null, deadline: null })
  })
})

describe("ARMEPS detail pages", () => {
  const expected = JSON.parse(fixture("expected-cards.json")) as unknown
  const card =
    Predicate.isObject(expected) && "cards" in expected && Array.isArray(expected.cards) ? expected.cards[0] : null

  it("keeps the names of a CPV Codes cell in Armenian or Russian script, each code's first, as its labels", () => {
    expect(
      cpvNames([
        "44131300-թուջե կափարիչներ",
        "30192700-8 – Бумага для офисной техники",
        "30197630-Printing paper",
        "44131300-կափարիչներ",
        "09132100",
        `33600000-${"դ".repeat(201)}`
      ])
    ).toEqual([
      { code: "44131300", language: "hy", name: "թուջե կափարիչներ" },
      { code: "30192700", language: "ru", name: "Бумага для офисной техники" }
    ])
  })

  it("matches expected-cards.json on the real fragment", () => {
    const { notices, rejected } = parseArmepsDetail(fixture("armeps-listContractDocuments-fragment-real.html"), {
      url: ARMEPS_URL
    })
    expect(rejected).toEqual([])
    expect(notices).toHaveLength(1)
    const notice = notices[0]
    expect(notice && valid(notice)).toBe(true)
    expect(notice).toMatchObject({
      kind: "original",
      procedureKey: "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107",
      version: null,
      reason: null,
      // The names the page gives its codes, kept as labels of the codes in Armenian.
      sourceLabels: [
        { code: "44131300", language: "hy", name: "թուջե կափարիչներ" },
        { code: "44423690", language: "hy", name: "դիտահոր երկաթբետոնե" }
      ]
    })
    expect(card).toMatchObject({ title: notice?.record.title, buyer: notice?.record.buyer, budget: null })
    expect(notice?.record).toMatchObject({
      // expected-cards `id` is the bare code; the schema's TenderId needs the `gnumner-` ASCII slug (code -> nativeId).
      id: "gnumner-amah-ap-ghapdzb-26-107",
      nativeId: "ԱՄԱՀ-ԱՊ-ԳՀԱՊՁԲ-26/107",
      title: "Procurement of goods for the Araks community",
      buyer: "Արաքսի համայնքապետարան",
      country: "AM",
      budget: null,
      currency: "AMD",
      // expected-cards has `.000Z`; the schema allows both, the project's records carry no milliseconds.
      deadline: "2026-10-05T10:30:00Z",
      publishedAt: "2026-09-25T14:49:00Z",
      url: ARMEPS_URL,
      // expected-cards says "Armavir"; docs/sample-data.md stores gnumner regions as Armenian marz names (`Շիրակ`).
      region: "Արմավիր",
      status: "open",
      cpvCodes: ["44131300", "44423690"],
      okpd2Codes: [],
      lots: [],
      // expected-cards has a string; TenderRecord.docsUrl is an array.
      docsUrl: [ARMEPS_URL]
    })
    // `subject` and `lotsCount` are card fields TenderRecord does not have, so they are not produced.
    expect(notice?.record).not.toHaveProperty("subject")
    expect(notice?.record).not.toHaveProperty("lotsCount")
  })

  it("reads a filled estimated value, three CPV codes and the Yerevan region", () => {
    const notice = parseArmepsDetail(fixture("RECONSTRUCTED_armeps-listContractDocuments-with-value.html"), {
      url: ARMEPS_URL
    }).notices[0]
    expect(notice?.record).toMatchObject({
      id: "gnumner-ek-eachapdzb-26-45",
      title: "Procurement of office supplies",
      buyer: "Երևանի քաղաքապետարան",
      budget: "12450000",
      currency: "AMD",
      region: "Երևան",
      publishedAt: "2026-09-25T13:48:00Z",
      cpvCodes: ["30192700", "30197630", "30192121"]
    })
  })

  it("marks pages with addenda rows as amendments and falls back to the Armenian title", () => {
    const html = fixture("armeps-listContractDocuments-fragment-real.html")
      .replace("<dd>Procurement of goods for the Araks community</dd>", "<dd> </dd>")
      .replace("<td>N/A</td>", "<td>12486999</td>")
      .replace(
        /<dt>Estimated value \(AMD\):<\/dt>\s*<dd>\s*<\/dd>/u,
        "<dt>Estimated value (AMD) :</dt><dd>1\u00a0234\u00a0567,89</dd>"
      )
    const notice = parseArmepsDetail(html, { url: ARMEPS_URL }).notices[0]
    expect(notice).toMatchObject({
      kind: "amendment",
      record: { status: "amended", title: "ՀՀ Արմավիրի մարզի Արաքս համայնք", budget: "1234567.89" }
    })
  })

  it("rejects a page without CfT Id", () => {
    const html = fixture("armeps-listContractDocuments-fragment-real.html").replace(
      /<dt>CfT Id:<\/dt>\s*<dd>[^<]*<\/dd>/u,
      ""
    )
    const result = parseArmepsDetail(html, { url: ARMEPS_URL })
    expect(result.notices).toEqual([])
    expect(result.rejected[0]).toMatchObject({ where: ARMEPS_URL })
  })
})

describe("eAuction detail pages", () => {
  it("parses the real fragment", () => {
    const { notices, rejected } = parseEauctionDetail(fixture("eauction-tender_details-fragment-real.html"), {
      url: EAUCTION_URL
    })
    expect(rejected).toEqual([])
    expect(notices[0] && valid(notices[0])).toBe(true)
    expect(notices[0]).toMatchObject({ kind: "original", procedureKey: "ԵՔ-ԷԱՃԾՁԲ-26/148" })
    expect(notices[0]?.record).toMatchObject({
      id: "gnumner-ek-eachtsdzb-26-148",
      title: "արխիվացման",
      status: "open",
      region: "Երևան",
      publishedAt: "2026-09-25T12:53:27Z",
      deadline: "2026-10-06T05:00:00Z",
      url: EAUCTION_URL,
      docsUrl: ["https://eauction.armeps.am/application/documents/public_invitation/tender_47686.zip"]
    })
  })

  it("links to the listing item of the same procedure", () => {
    const listed = listing(
      "RECONSTRUCTED_listing-page_elektronayin_achurdi.html",
      "elektronayin_achurdi_haytararutyun_ev_hraver",
      AUCTION_PAGE
    ).notices[0]
    const detail = parseEauctionDetail(fixture("eauction-tender_details-fragment-real.html"), { url: EAUCTION_URL })
      .notices[0]
    expect(detail?.record.id).toBe(listed?.record.id)
    expect(detail?.record.deadline).toBe(listed?.record.deadline)
  })
})

describe("value helpers", () => {
  it("normalises amounts without float formatting", () => {
    expect(normalizeAmount("1 234 567,89")).toBe("1234567.89")
    expect(normalizeAmount("1,234,567.89")).toBe("1234567.89")
    expect(normalizeAmount("1\u00a0234\u00a0567,89")).toBe("1234567.89")
    expect(normalizeAmount("1\u202f234\u2009567.50")).toBe("1234567.5")
    expect(normalizeAmount("12 450 000")).toBe("12450000")
    expect(normalizeAmount("12,450,000.00")).toBe("12450000")
    expect(normalizeAmount("1.234.567,89")).toBe("1234567.89")
    expect(normalizeAmount("98765432109876543210.12")).toBe("98765432109876543210.12")
    expect(normalizeAmount("1234,5")).toBe("1234.5")
    expect(normalizeAmount("")).toBe(null)
    expect(normalizeAmount("N/A")).toBe(null)
    expect(normalizeAmount("1,2.3,4")).toBe(null)
  })

  it("converts Yerevan wall-clock time to UTC", () => {
    expect(yerevanToUtc(2026, 1, 1, 2, 0, 0)).toBe("2025-12-31T22:00:00Z")
    expect(yerevanToUtc(2026, 7, 1, 12, 0, 0)).toBe("2026-07-01T08:00:00Z") // no DST in summer
    expect(yerevanToUtc(2026, 2, 29, 12, 0, 0)).toBe(null)
    expect(yerevanToUtc(2028, 2, 29, 3, 59, 59)).toBe("2028-02-28T23:59:59Z")
  })
})
