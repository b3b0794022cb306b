import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

// The classification data in packages/search-text/data/classifications (see docs/search-data.md, "Classifications").
// The OKPD2 table and Russian CPV labels are not shipped, nor anything made from them (the operator imports them; see
// the doc): the hand-made crosswalk links are checked for OKPD2's code shape here, and the links the labels make, at
// run time, in crosswalk.test.ts.
const dir = join(import.meta.dirname, "../data/classifications")
const file = (name: string) => join(dir, name)
const readJsonl = (name: string): Array<Record<string, unknown>> =>
  readFileSync(file(name), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)

const euLanguages = "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv".split(" ")
const cpvPattern = /^\d{8}$/
const cpvPrefixPattern = /^\d{2,8}$/
const okpd2Pattern = /^\d\d(\.\d(\d(\.\d(\d(\.\d{3})?)?)?)?)?$/

interface CpvRow {
  code: string
  labels: Record<string, string>
}
interface Link {
  okpd2: string
  cpv: string
  precision: string
}

const cpv = readJsonl("cpv.jsonl") as unknown as Array<CpvRow>
const cpvCodes = cpv.map((row) => row.code)
const links = readJsonl("cpv-okpd2.jsonl") as unknown as Array<Link>

const isSorted = (codes: Array<string>) => codes.every((code, i) => i === 0 || codes[i - 1]! < code)
const okpd2Ancestors = (code: string): Array<string> => {
  const out = [code]
  for (let c = code; c.length > 2; out.push(c)) c = c.length === 12 ? c.slice(0, 8) : c.slice(0, -1).replace(/\.$/, "")
  return out
}
/** The CPV prefixes that describe an OKPD2 code: its links and those of its ancestors. */
const cpvOf = (okpd2Code: string) =>
  new Set(links.filter((link) => okpd2Ancestors(okpd2Code).includes(link.okpd2)).map((link) => link.cpv))

describe("cpv.jsonl", () => {
  it("holds the 9,454 codes of CPV 2008, well-formed, unique and sorted", () => {
    expect(cpv).toHaveLength(9454)
    expect(cpvCodes.filter((code) => !cpvPattern.test(code))).toEqual([])
    expect(new Set(cpvCodes).size).toBe(cpvCodes.length)
    expect(isSorted(cpvCodes)).toBe(true)
    expect(cpvCodes).toContain("45233000")
  })

  it("gives every code an English label, and labels only in the 24 EU languages", () => {
    expect(cpv.filter((row) => typeof row.labels.en !== "string" || row.labels.en.trim() === "")).toEqual([])
    const odd = cpv.filter((row) =>
      Object.entries(row.labels).some(
        ([language, label]) => !euLanguages.includes(language) || label === "" || label.trim() !== label
      )
    )
    expect(odd).toEqual([])
    expect(cpv.find((row) => row.code === "45000000")!.labels.en).toBe("Construction work")
  })

  it("has nearly every label in every language (the source lacks two)", () => {
    const missing = cpv.reduce((n, row) => n + euLanguages.filter((l) => !(l in row.labels)).length, 0)
    expect(missing).toBeLessThanOrEqual(2)
  })
})

describe("cpv-okpd2.jsonl", () => {
  it("has well-formed, unique hand-made links with a known precision", () => {
    expect(links.length).toBeGreaterThan(300)
    const keys = new Set<string>()
    for (const link of links) {
      expect(Object.keys(link).toSorted()).toEqual(["cpv", "okpd2", "precision"])
      expect(link.okpd2).toMatch(okpd2Pattern)
      expect(link.cpv).toMatch(cpvPrefixPattern)
      expect(["exact", "okpd2-narrower", "cpv-narrower", "partial"]).toContain(link.precision)
      keys.add(`${link.okpd2} ${link.cpv}`)
    }
    expect(keys.size).toBe(links.length)
  })

  it("points at CPV codes that exist (a prefix: at least one code starts with it)", () => {
    const unknown = [...new Set(links.map((link) => link.cpv))].filter(
      (prefix) => !cpvCodes.some((code) => code.startsWith(prefix))
    )
    expect(unknown).toEqual([])
  })

  it("describes Russian road works by the CPV category of road works", () => {
    for (const code of ["42.11.20.000", "42.11.20.100", "42.11.20.200"]) {
      const prefixes = [...cpvOf(code)]
      expect(prefixes, code).toContain("45233")
      expect(
        prefixes.every((prefix) => prefix.startsWith("45")),
        code
      ).toBe(true)
    }
  })

  it("lets the CPV division of construction work span the Russian construction classes", () => {
    for (const code of ["41.20.40.100", "42.21.12.110", "43.21.10.110", "43.39.19.190"])
      expect(
        [...cpvOf(code)].some((prefix) => prefix.startsWith("45")),
        code
      ).toBe(true)
  })
})

describe("cpv-okpd2-related.json", () => {
  it("joins pairs of divisions, OKPD2 then CPV", () => {
    const pairs = JSON.parse(readFileSync(file("cpv-okpd2-related.json"), "utf8")) as Array<[string, string]>
    expect(pairs.length).toBeGreaterThan(50)
    for (const [okpd2, division] of pairs) {
      expect(okpd2).toMatch(/^\d\d$/)
      expect(cpvCodes.some((code) => code.startsWith(division))).toBe(true)
    }
  })
})

describe("cpv-ru-own.jsonl", () => {
  it("holds our Russian labels of existing CPV codes, translations and corrections", () => {
    const own = readJsonl("cpv-ru-own.jsonl") as unknown as Array<{ code: string; ru: string; source: string }>
    expect(own.length).toBeGreaterThan(60)
    expect(isSorted(own.map((row) => row.code))).toBe(true)
    for (const row of own) {
      expect(cpvCodes).toContain(row.code)
      expect(row.ru).toMatch(/^[А-ЯЁ][^\n]*[а-яёA-Z)]$/u)
      expect(["translation", "correction"]).toContain(row.source)
    }
  })
})

describe("cpv-hy.jsonl", () => {
  const armenian = readJsonl("cpv-hy.jsonl") as unknown as Array<{ code: string; hy: Array<string> }>
  const significant = (code: string) => code.replace(/0+$/u, "").length

  it("labels every CPV code down to the class (1,319) and categories besides, 1 to 4 Armenian labels a code", () => {
    const codes = armenian.map((row) => row.code)
    expect(isSorted(codes)).toBe(true)
    expect(codes.every((code) => cpvCodes.includes(code))).toBe(true)
    const classes = cpvCodes.filter((code) => significant(code) <= 4)
    expect(classes.length).toBe(1_319)
    expect(classes.filter((code) => !codes.includes(code))).toEqual([])
    expect(codes.filter((code) => significant(code) === 5).length).toBeGreaterThanOrEqual(250)
    for (const row of armenian) {
      expect(row.hy.length, row.code).toBeGreaterThanOrEqual(1)
      expect(row.hy.length, row.code).toBeLessThanOrEqual(4)
      for (const label of row.hy) expect(label, row.code).toMatch(/^\p{Script=Armenian}[\p{Script=Armenian} ,-]*$/u)
    }
  })
})
