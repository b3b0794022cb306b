import { RecordLot } from "@tenders/core"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { parseInvitationDocx } from "../src/gnumner/invitation.ts"
import { zip } from "./fixtures/eaeu/feed/zipWriter.ts"
import { docx, invitationFixture, wordDocument } from "./fixtures/gnumner/invitation/docx.ts"

const lotsOf = (bytes: Uint8Array) => {
  const result = parseInvitationDocx(bytes)
  if (Result.isFailure(result)) throw new Error(`expected lots, got: ${result.failure}`)
  return result.success
}

const failureOf = (bytes: Uint8Array): string => {
  const result = parseInvitationDocx(bytes)
  return Result.isFailure(result) ? result.failure : "(succeeded)"
}

const isLot = Schema.is(RecordLot)

describe("parseInvitationDocx", () => {
  it("reads the Armenian lot table: names, CPV, lot totals; skips the column-number and total rows", () => {
    const lots = lotsOf(docx(invitationFixture("INVENTED_invitation-hy_document.xml")))
    expect(lots).toEqual([
      { title: "Համակարգչային տեխնիկա", budget: "2500000", currency: "AMD", cpvCodes: ["30213100"] },
      { title: "Լազերային տպիչ", budget: "1200000.5", currency: "AMD", cpvCodes: ["30232110"] },
      { title: "Գրենական պիտույքներ (թուղթ A4, թղթապանակներ)", budget: null, currency: null, cpvCodes: ["30192700"] }
    ])
    expect(lots.every(isLot)).toBe(true)
  })

  it("reads the Russian lot table (header in the second row, a row in a content control, stored entries)", () => {
    const xml = invitationFixture("INVENTED_invitation-ru_document.xml")
    const bytes = zip([
      { name: "[Content_Types].xml", text: "<Types/>", stored: true },
      { name: "word/document.xml", text: xml, stored: true }
    ])
    expect(lotsOf(bytes)).toEqual([
      { title: "Бумага для офисной техники", budget: "500000", currency: "AMD", cpvCodes: ["30192700"] },
      { title: 'Бензин "Регуляр"', budget: "1234567.89", currency: "AMD", cpvCodes: ["09132100"] }
    ])
  })

  it("finds the header in the second row of a simple table and works without CPV and price columns", () => {
    const xml = wordDocument([
      "Հավելված 1",
      [
        ["Գնման առարկաների ցանկ", "", ""],
        ["N", "Գնման առարկայի անվանումը", "Քանակ"],
        ["1", "Դիզելային վառելիք", "3000"],
        ["N", "Գնման առարկայի անվանումը", "Քանակ"],
        ["2", "Սեղմված բնական գազ", "1500"],
        ["", "", ""]
      ]
    ])
    expect(lotsOf(docx(xml))).toEqual([
      { title: "Դիզելային վառելիք", budget: null, currency: null, cpvCodes: [] },
      { title: "Սեղմված բնական գազ", budget: null, currency: null, cpvCodes: [] }
    ])
  })

  it("ignores a header found only in the fourth row", () => {
    const xml = wordDocument([[["a"], ["b"], ["c"], ["№", "Наименование"], ["1", "Уголь"]]])
    expect(failureOf(docx(xml))).toMatch(/no lot table/u)
  })

  it("does not take a lone Latin `n` inside a word for the lot-number column", () => {
    const xml = wordDocument([
      [
        ["Unit", "Name"],
        ["pcs", "Paper"]
      ]
    ])
    expect(failureOf(docx(xml))).toMatch(/no lot table/u)
  })

  it("reports a header without lot rows", () => {
    const xml = wordDocument([
      [
        ["Лот", "Наименование", "Цена"],
        ["Итого", "", "0"]
      ]
    ])
    expect(failureOf(docx(xml))).toBe("the invitation's lot table has no lot rows")
  })

  it("fails, never throws, on a file that is not a ZIP", () => {
    expect(failureOf(new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\n"))).toMatch(
      /^not a DOCX file: not a ZIP archive/u
    )
    expect(failureOf(new Uint8Array())).toMatch(/^not a DOCX file/u)
  })

  it("fails on a ZIP without word/document.xml", () => {
    expect(failureOf(docx(null))).toBe("not a DOCX file: the archive has no word/document.xml")
  })

  it("fails on a document without a lot table", () => {
    const xml = wordDocument([
      "ՀՐԱՎԵՐ",
      [
        ["Պատվիրատու", "ՀՀ ֆինանսների նախարարություն"],
        ["Հասցե", "ք. Երևան"]
      ]
    ])
    expect(failureOf(docx(xml))).toBe(
      "no lot table (a table with lot-number and name columns) among the document's 1 tables"
    )
    expect(failureOf(docx(wordDocument(["Միայն տեքստ"])))).toMatch(/among the document's 0 tables/u)
  })

  it("fails on a malformed or foreign document.xml", () => {
    expect(failureOf(docx("<w:document><w:body><w:tbl></w:body>"))).toMatch(/not well-formed XML/u)
    expect(failureOf(docx("<html><body/></html>"))).toBe("word/document.xml has no w:document element")
  })
})
