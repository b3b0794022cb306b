import { assert, describe, it } from "@effect/vitest"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { searchTextFromFiles } from "../src/index.ts"

// What a notice's codes say, and the codes its words name, in every language the shipped labels speak.
const text = searchTextFromFiles()
const termsOf = (overrides: Parameters<typeof makeRecord>[0]) => text.documentTerms(makeRecord(overrides))
/** An EIS notice naming only its drug, filed under an OKPD2 code. */
const russianDrugNotice = (n: string, title: string, okpd2: string) =>
  makeRecord({
    id: `eaeu-030000000002600000${n}`,
    source: "eaeu",
    title,
    country: "RU",
    deadline: isoFromNow(20),
    cpvCodes: [],
    okpd2Codes: [okpd2]
  })
const alternatives = (q: string) => text.queryPlan(q).clauses.flatMap((c) => c.alternatives.map((a) => a.term))

describe("codes that speak every language", () => {
  it("gives a notice the concepts of its codes' labels, as low as its codes count", () => {
    // A Russian notice naming only the drug: its OKPD2 code reaches CPV 336 (pharmaceutical products) by the hand-made
    // crosswalk, and with the packs CPV 33661200 (analgesics) by the links their labels make.
    const drugNotice = russianDrugNotice("1", "Поставка Кеторолака", "21.20.10.232")
    const drug = text.documentTerms(drugNotice)
    assert.strictEqual(drug.get("c:medicines"), "codes")
    assert.isUndefined(drug.get("c:analgesics"))
    const withPacks = searchTextFromFiles()
    withPacks.usePacks({
      digest: "excerpt",
      packs: new Map([
        ["okpd2", [{ code: "21.20.10.232", label: "Анальгетики", withdrawn: false }]],
        ["cpv-ru", [{ code: "33661200", label: "Анальгетики", withdrawn: false }]]
      ])
    })
    assert.strictEqual(withPacks.documentTerms(drugNotice).get("c:analgesics"), "codes")
    // A concept the title has keeps the title's place.
    const titled = termsOf({ id: "ted-1-2026", title: "Supply of medicines", cpvCodes: ["33600000"] })
    assert.strictEqual(titled.get("c:medicines"), "title")
    // A division's label names many fields: it gives none (33000000 would make every drug "medical equipment").
    const division = termsOf({ id: "ted-2-2026", title: "Lot 1", cpvCodes: ["33000000"] })
    assert.isUndefined(division.get("c:medical_devices"))
    // A broader code's label naming several fields gives none of them: roadworks are no airfields or railways
    // (4523: "Construction works for pipelines, communication and power lines, for highways, roads, airfields and
    // railways"); its own label's concepts it has.
    const roadworks = termsOf({ id: "ted-3-2026", title: "Lot 1", cpvCodes: ["45233140"] })
    assert.strictEqual(roadworks.get("c:road"), "codes")
    assert.isUndefined(roadworks.get("c:airport"))
    assert.isUndefined(roadworks.get("c:railway"))
  })

  it("puts an OKPD2 subcategory in its category, and the category's CPV class with it", () => {
    // 21.20.10.233, antiepileptics, is in 21.20.10.230, medicines for the nervous system (CPV 33661, hand-made link).
    const notice = russianDrugNotice("2", "Поставка Ламотриджина", "21.20.10.233")
    const terms = text.documentTerms(notice)
    assert.strictEqual(terms.get("okpd:21.20.10.230"), "codes")
    assert.strictEqual(terms.get("cpv:33661"), "codes")
    assert.isUndefined(terms.get("okpd:21.20.10.231"))
    assert.include(alternatives("21.20.10.230"), "okpd:21.20.10.230")
  })

  it("names the codes whose label a notice's words have, in Armenian too, and not by generic words", () => {
    const armenian = termsOf({
      id: "gnumner-1",
      source: "gnumner",
      title: "Դեղորայքի ձեռքբերում",
      country: "AM",
      deadline: isoFromNow(20),
      cpvCodes: []
    })
    assert.strictEqual(armenian.get("named:cpv:336"), "codes")
    // A notice filed under codes has their labels; its words name no others by label.
    const classified = termsOf({ id: "ted-4-2026", title: "Purchase of security services", cpvCodes: ["79710000"] })
    const unclassified = termsOf({ id: "ted-5-2026", title: "Purchase of security services", cpvCodes: [] })
    // ("security" is a word of the label of 35121000, security equipment).
    assert.isTrue(unclassified.has("named:cpv:35121"))
    assert.isFalse(classified.has("named:cpv:35121"))
    // "Поставка" is the generic "supply" in Russian and the Bulgarian for a stand: it names no code alone.
    const generic = termsOf({ id: "eaeu-2", source: "eaeu", title: "Поставка Кеторолака", country: "RU", cpvCodes: [] })
    assert.deepStrictEqual(
      [...generic.keys()].filter((term) => term.startsWith("named:")),
      []
    )
  })

  it("asks, for a label a query names, the notices filed under its code and those that name it", () => {
    const asked = alternatives("pharmaceutical products")
    assert.include(asked, "cpv:336")
    assert.include(asked, "named:cpv:336")
    assert.include(alternatives("դեղորայք"), "cpv:336")
  })
})
