import type { PackCode } from "@tenders/core"
import { Result } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { okpd2Levels } from "../src/Okpd2.ts"
import { labelLinks } from "../src/Crosswalk.ts"
import { russianCpvLabels } from "../src/Labels.ts"
import type { ManualCrosswalk } from "../src/LexiconData.ts"
import { readLexiconData } from "../src/LexiconFiles.ts"
import { cpvRuPack, okpd2Pack } from "../src/Packs.ts"

const inForce = (code: string, label: string): PackCode => ({ code, label, withdrawn: false })

// Excerpts typed here: OKPD2 codes and Russian CPV labels in the packs' shapes (the real tables are never shipped).
const manual: ManualCrosswalk = {
  links: [
    { okpd2: "21.20.1", cpv: "336", precision: "okpd2-narrower" },
    { okpd2: "21.20.10.290", cpv: "33661", precision: "exact" }
  ],
  related: []
}
const cpvRussian = new Map([
  ["33661200", "Анальгетики"],
  ["33661000", "Лекарственные средства для лечения нервной системы"],
  ["03111000", "Анальгетики растительные"],
  ["33600000", "Фармацевтическая продукция"],
  ["33651100", "Антибактериальные препараты для системного применения"]
])

describe("the crosswalk the Russian labels make", () => {
  it("links an OKPD2 code to the CPV codes whose label words it holds, inside the hand-made branch", () => {
    const links = labelLinks(
      [
        inForce("21.20.10.232", "Анальгетики"),
        inForce("21.20.10.250", "Анальгетики для детей"),
        inForce("21.20.10.260", "Средства лекарственные для лечения нервной системы, кроме анальгетиков"),
        inForce("21.20.10.270", "Анальгетики растительные"),
        inForce("21.20.10.290", "Средства лекарственные для лечения нервной системы прочие"),
        inForce("21.20.10.191", "Препараты антибактериальные для системного использования")
      ],
      cpvRussian,
      manual
    )
    expect(links).toEqual([
      // Of a use ("применения", "использования"), the CPV label's word need not be the OKPD2 label's.
      { okpd2: "21.20.10.191", cpv: "336511", method: "label-ru-contained" },
      // The same words: exact.
      { okpd2: "21.20.10.232", cpv: "336612", method: "label-ru-exact" },
      // Every word of the CPV label in the OKPD2 one.
      { okpd2: "21.20.10.250", cpv: "336612", method: "label-ru-contained" },
      // "except analgesics" names what the code does not hold: the nervous-system label matches, analgesics do not.
      { okpd2: "21.20.10.260", cpv: "33661", method: "label-ru-contained" },
      // The herbal CPV label lies outside the hand-made branch (336): only the analgesics inside it.
      { okpd2: "21.20.10.270", cpv: "336612", method: "label-ru-contained" }
      // 21.20.10.290: the label link is the hand-made one, not repeated.
    ])
  })

  it("makes nothing without the labels of both packs", () => {
    expect(labelLinks([], cpvRussian, manual)).toEqual([])
    expect(labelLinks([inForce("21.20.10.232", "Анальгетики")], new Map(), manual)).toEqual([])
  })

  const directory = process.env["TENDERS_CLASSIFICATIONS_DIR"]
  it.skipIf(directory === undefined)("on the real packs, the labels link most of OKPD2 (CI)", () => {
    const file = (name: string) => ({ name, text: readFileSync(join(directory ?? "", name), "utf8") })
    const okpd2 = Result.getOrThrow(okpd2Pack([file("okpd_table.tsv"), file("okpd2.csv")]))
    const russian = Result.getOrThrow(cpvRuPack(file("cpv_ru.json")))
    const data = readLexiconData()
    const packs = { digest: "real", packs: new Map([["okpd2", okpd2] as const, ["cpv-ru", russian] as const]) }
    const links = labelLinks(okpd2, russianCpvLabels(packs, data.cpvRussian), data.manualCrosswalk)
    // 2,252: a subcategory's link its category gives already is not repeated (525 of them since the categories are
    // levels of their subcategories).
    expect(links.length).toBeGreaterThan(2_000)
    expect(links.some((link) => link.okpd2.startsWith("21.20.10.23") && link.cpv === "33661")).toBe(false)
    expect(links.filter((link) => link.method === "label-ru-exact").length).toBeGreaterThan(150)
    expect(links).toContainEqual({ okpd2: "21.20.10.232", cpv: "336612", method: "label-ru-exact" })
    // Every label link lies inside the CPV branch of the nearest strict hand-made link, where there is one.
    const strict = data.manualCrosswalk.links.filter((link) => link.precision !== "partial")
    const outside = links.filter((link) => {
      const levels = okpd2Levels(link.okpd2).toReversed()
      const nearest = levels.map((level) => strict.filter((m) => m.okpd2 === level)).find((found) => found.length > 0)
      return nearest !== undefined && !nearest.some((m) => link.cpv.startsWith(m.cpv))
    })
    expect(outside).toEqual([])
    // Every hand-made link names an OKPD2 code of the table.
    const codes = new Set(okpd2.map((code) => code.code))
    expect(data.manualCrosswalk.links.filter((link) => !codes.has(link.okpd2))).toEqual([])
  })
})
