import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

// The data checks of the glossary (packages/search-text/data/glossary.jsonl) and the places
// (packages/search-text/data/places.jsonl): shape, ids, languages, scripts and NUTS codes. See docs/search-data.md.

const dataDir = join(import.meta.dirname, "..", "data")

type Line = { readonly number: number; readonly text: string }

const lines = (file: string): ReadonlyArray<Line> =>
  readFileSync(join(dataDir, file), "utf8")
    .split("\n")
    .map((text, index) => ({ number: index + 1, text }))
    .filter((line) => line.text.trim() !== "")

const parse = (file: string): ReadonlyArray<Record<string, unknown>> =>
  lines(file).map((line) => {
    try {
      return JSON.parse(line.text) as Record<string, unknown>
    } catch (error) {
      throw new Error(`${file}:${line.number} is not JSON: ${String(error)}`, { cause: error })
    }
  })

const glossary = parse("glossary.jsonl")
const places = parse("places.jsonl")

/** Language codes a glossary concept or a place may carry (ISO 639-1). */
const languages = new Set([
  "en",
  "ru",
  "hy",
  "de",
  "fr",
  "it",
  "es",
  "pl",
  "pt",
  "nl",
  "ro",
  "cs",
  "sk",
  "sl",
  "hr",
  "hu",
  "bg",
  "el",
  "sv",
  "da",
  "fi",
  "et",
  "lv",
  "lt",
  "mt",
  "ga",
  "lb",
  "nb",
  "nn",
  "is",
  "ca",
  "eu",
  "gl",
  "tr"
])
const cyrillicLanguages = new Set(["ru", "bg"])
const cyrillic = /\p{Script=Cyrillic}/u
const armenian = /\p{Script=Armenian}/u
const greek = /\p{Script=Greek}/u

/** Checks one language's list of terms (or names); returns the problems found. */
const termProblems = (where: string, language: string, value: unknown): Array<string> => {
  if (!languages.has(language)) return [`${where}: unknown language ${language}`]
  if (!Array.isArray(value) || value.length === 0) return [`${where}.${language}: not a non-empty list`]
  const problems: Array<string> = []
  const seen = new Set<string>()
  for (const term of value) {
    if (typeof term !== "string" || term.trim() === "") {
      problems.push(`${where}.${language}: empty or not a string: ${JSON.stringify(term)}`)
      continue
    }
    if (term !== term.trim() || /\s{2}/u.test(term)) problems.push(`${where}.${language}: untrimmed "${term}"`)
    // `=words`: matched as written; the mark is the first character only, and words follow it.
    if (/^=\s|^=$|.=/u.test(term)) problems.push(`${where}.${language}: misplaced = in "${term}"`)
    const key = term.normalize("NFC").toLowerCase()
    if (seen.has(key)) problems.push(`${where}.${language}: duplicate "${term}"`)
    seen.add(key)
    if (cyrillic.test(term) && !cyrillicLanguages.has(language))
      problems.push(`${where}.${language}: Cyrillic "${term}"`)
    if (armenian.test(term) && language !== "hy") problems.push(`${where}.${language}: Armenian script "${term}"`)
    if (greek.test(term) && language !== "el") problems.push(`${where}.${language}: Greek script "${term}"`)
    if (language === "hy" && !armenian.test(term)) problems.push(`${where}.hy: no Armenian letter in "${term}"`)
    if (language === "el" && !greek.test(term)) problems.push(`${where}.el: no Greek letter in "${term}"`)
  }
  return problems
}

const idPattern = /^[a-z][a-z0-9_]*$/u
const nutsPattern = /^[A-Z]{2}[0-9A-Z]{0,3}$/u

const duplicates = (ids: ReadonlyArray<unknown>): Array<unknown> => ids.filter((id, index) => ids.indexOf(id) !== index)

describe("glossary.jsonl", () => {
  it("has a few hundred concepts, each line a JSON object", () => {
    expect(glossary.length).toBeGreaterThanOrEqual(300)
    for (const entry of glossary) expect(typeof entry).toBe("object")
  })

  it("has unique, lower-case ASCII ids", () => {
    const ids = glossary.map((entry) => entry.id)
    expect(ids.filter((id) => typeof id !== "string" || !idPattern.test(id))).toEqual([])
    expect(duplicates(ids)).toEqual([])
  })

  it("gives every concept English, Russian and Armenian terms", () => {
    const missing = glossary.flatMap((entry) =>
      ["en", "ru", "hy"]
        .filter((language) => !Array.isArray(entry[language]) || entry[language].length === 0)
        .map((language) => `${String(entry.id)}: no ${language}`)
    )
    expect(missing).toEqual([])
  })

  it("has non-empty, trimmed terms, no duplicate in a language of a concept, each script in its own language", () => {
    const problems = glossary.flatMap((entry) =>
      Object.entries(entry)
        .filter(([key]) => key !== "id" && key !== "generic" && key !== "broader")
        .flatMap(([language, terms]) => termProblems(String(entry.id), language, terms))
    )
    expect(problems).toEqual([])
  })

  it("says what a concept is a kind of by other concepts' ids: never a generic one, itself, or in a circle", () => {
    const byId = new Map(glossary.map((entry) => [String(entry.id), entry]))
    const broaderOf = (entry: Record<string, unknown>): ReadonlyArray<string> =>
      Array.isArray(entry.broader) ? entry.broader.map(String) : []
    const problems = glossary.flatMap((entry) => {
      const id = String(entry.id)
      if ("broader" in entry && (!Array.isArray(entry.broader) || entry.broader.length === 0)) return [`${id}: broader`]
      return broaderOf(entry).flatMap((other) => {
        const target = byId.get(other)
        if (target === undefined) return [`${id}: no concept ${other}`]
        if (target.generic === true) return [`${id}: ${other} is generic`]
        // Circles: the concept among those its broader ones are kinds of, at any remove.
        const seen = new Set<string>()
        const queue = [other]
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          if (next === id) return [`${id}: in a circle through ${other}`]
          if (seen.has(next)) continue
          seen.add(next)
          queue.push(...broaderOf(byId.get(next) ?? {}))
        }
        return []
      })
    })
    expect(problems).toEqual([])
    expect(glossary.filter((entry) => "broader" in entry).length).toBeGreaterThan(0)
  })

  it("marks generic concepts with generic: true only", () => {
    const wrong = glossary.filter((entry) => "generic" in entry && entry.generic !== true).map((entry) => entry.id)
    expect(wrong).toEqual([])
    expect(glossary.filter((entry) => entry.generic === true).map((entry) => entry.id)).toEqual(
      expect.arrayContaining(["supply", "purchase", "works", "services", "performance", "provision", "needs"])
    )
  })
})

/** The languages of a country's place names, one of which each place of that country must have. */
const nativeLanguages: Readonly<Record<string, ReadonlyArray<string>>> = {
  AM: ["hy"],
  RU: ["ru"],
  AT: ["de"],
  BE: ["nl", "fr", "de"],
  BG: ["bg"],
  CH: ["de", "fr", "it"],
  CY: ["el", "tr"],
  CZ: ["cs"],
  DE: ["de"],
  DK: ["da"],
  EE: ["et"],
  ES: ["es", "ca", "eu", "gl"],
  FI: ["fi", "sv"],
  FR: ["fr"],
  GR: ["el"],
  HR: ["hr"],
  HU: ["hu"],
  IE: ["ga", "en"],
  IS: ["is"],
  IT: ["it"],
  LT: ["lt"],
  LU: ["lb", "fr", "de"],
  LV: ["lv"],
  MT: ["mt", "en"],
  NL: ["nl"],
  NO: ["nb", "nn"],
  PL: ["pl"],
  PT: ["pt"],
  RO: ["ro"],
  SE: ["sv"],
  SI: ["sl"],
  SK: ["sk"]
}
/** NUTS uses EL for Greece; every other country here has its ISO code as NUTS country code. */
const nutsCountry = (iso: string): string => (iso === "GR" ? "EL" : iso)

const euMembers = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK"
]

describe("places.jsonl", () => {
  it("has unique, lower-case ASCII ids and a known kind and country", () => {
    const ids = places.map((place) => place.id)
    expect(ids.filter((id) => typeof id !== "string" || !idPattern.test(id))).toEqual([])
    expect(duplicates(ids)).toEqual([])
    const wrong = places.filter(
      (place) =>
        !["country", "region", "city"].includes(String(place.kind)) ||
        typeof place.country !== "string" ||
        !(place.country in nativeLanguages)
    )
    expect(wrong.map((place) => place.id)).toEqual([])
  })

  it("names every place in English and in its country's language, each script in its own language", () => {
    const problems = places.flatMap((place) => {
      const names = place.names as Record<string, unknown>
      const where = String(place.id)
      const found = [
        ...(Array.isArray(names.en) && names.en.length > 0 ? [] : [`${where}: no English name`]),
        ...(nativeLanguages[String(place.country)]?.some((language) => Array.isArray(names[language]))
          ? []
          : [`${where}: no name in the language of ${String(place.country)}`])
      ]
      return [...found, ...Object.entries(names).flatMap(([language, list]) => termProblems(where, language, list))]
    })
    expect(problems).toEqual([])
  })

  it("has well-formed NUTS codes, in the place's own country", () => {
    const problems = places.flatMap((place) => {
      const codes = place.nuts
      if (!Array.isArray(codes)) return [`${String(place.id)}: nuts is not a list`]
      return codes.flatMap((code) =>
        typeof code === "string" && nutsPattern.test(code) && code.startsWith(nutsCountry(String(place.country)))
          ? []
          : [`${String(place.id)}: bad NUTS code ${JSON.stringify(code)}`]
      )
    })
    expect(problems).toEqual([])
  })

  it("covers Yerevan and the ten marzes, Russia's federal subjects and the EU member states", () => {
    const count = (country: string, kind: string) =>
      places.filter((place) => place.country === country && place.kind === kind).length
    expect(places.some((place) => place.id === "yerevan")).toBe(true)
    expect(count("AM", "region")).toBe(10)
    expect(count("RU", "region")).toBeGreaterThanOrEqual(80)
    const countries = places.filter((place) => place.kind === "country")
    for (const member of euMembers) {
      const country = countries.find((place) => place.country === member)
      expect(country?.nuts, member).toEqual([nutsCountry(member)])
    }
  })
})
