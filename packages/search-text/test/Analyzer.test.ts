import { hasEveryClause, relevance, type TenderRecord } from "@tenders/core"
import { makeRecord } from "@tenders/core/testing"
import { describe, expect, it } from "vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import {
  armenianStem,
  buildLexicon,
  foldLatin,
  polishStem,
  dataDirectory,
  indexLabels,
  labelIndexLines,
  labelScope,
  makeAnalyzer,
  readCpv,
  shippedLabels,
  compoundPartsOf,
  compoundPartsText,
  readLexiconData,
  readStopWords,
  searchTextFromFiles,
  wordsOf
} from "../src/index.ts"

// A small lexicon made here, so each capability is shown on data the test controls (the shipped data has its own
// tests in glossary-data.test.ts and classifications.test.ts).
const lexiconData = {
  glossary: [
    {
      id: "road",
      terms: { en: ["road"], ru: ["дорога", "автомобильная дорога"], hy: ["ճանապարհ"], de: ["Straße"], fi: ["tie"] }
    },
    {
      id: "repair",
      terms: {
        en: ["repair"],
        ru: ["ремонт"],
        hy: ["վերանորոգում", "նորոգում"],
        fr: ["réparation"],
        de: ["Sanierung"]
      }
    },
    { id: "school", terms: { en: ["school"], ru: ["школа"], hy: ["դպրոց"], de: ["Schule"], it: ["scuola"] } },
    { id: "roof", terms: { en: ["roof"], ru: ["кровля", "крыша"], hy: ["տանիք"], de: ["Dach"] } },
    { id: "supply", generic: true, terms: { en: ["supply"], ru: ["поставка"], hy: ["մատակարարում"] } },
    { id: "defibrillators", terms: { en: ["defibrillator", "AED"], es: ["desfibrilador", "DEA"] } },
    {
      id: "advertising",
      terms: { en: ["=advertising"], ru: ["реклама"], pt: ["=publicidade", "campanha publicitária"] }
    }
  ],
  places: [
    { id: "gyumri", names: { en: ["Gyumri"], hy: ["Գյումրի"], ru: ["Гюмри"] } },
    { id: "munich", names: { en: ["Munich"], de: ["München"], ru: ["Мюнхен"] }, nuts: ["DE212"] },
    { id: "syunik", names: { en: ["Syunik"], hy: ["Սյունիք", "Սյունիքի"], ru: ["Сюник"] } },
    { id: "meghri", names: { en: ["Meghri"], hy: ["Մեղրի", "Մեղրու"], ru: ["Мегри"] }, within: "syunik" }
  ],
  labels: indexLabels(
    [
      { code: "09134200", labels: { en: "Diesel fuel", de: "Dieselkraftstoff" } },
      { code: "42671000", labels: { en: "Tool holders", bg: "Поставки" } },
      { code: "34928120", labels: { en: "Barrier components", sv: "Räcken" } }
    ],
    readStopWords()
  ),
  crosswalk: [
    { okpd2: "19.20.21", cpv: "09134200" },
    { okpd2: "43.91", cpv: "4526" }
  ],
  manualCrosswalk: { links: [], related: [] },
  cpvRussian: [],
  cpvEnglish: [
    { code: "09134200", label: "Diesel fuel" },
    { code: "18423000", label: "Ties" },
    { code: "45261210", label: "Roof-covering work" },
    { code: "45261910", label: "Roof repair" }
  ],
  compoundParts: new Map([
    ["de", new Set(["abwass", "entsorg", "anlag"])],
    ["sv", new Set(["tung"])]
  ]),
  okpd2Labels: new Map([
    ["43.99.10.110", "Работы по устройству кровли и ремонту дорог"],
    ["43.99.10.120", "Работы по ремонту прочие, кроме работ по ремонту кровли"]
  ])
}
const lexicon = buildLexicon(lexiconData)
const analyzer = makeAnalyzer(lexicon, readStopWords())

const record = (fields: Omit<Partial<TenderRecord>, "id"> & { readonly id: string }): TenderRecord =>
  makeRecord({ buyer: null, region: null, cpvCodes: [], okpd2Codes: [], lots: [], ...fields } as never)

const russianRoad = record({
  id: "eaeu-1",
  source: "eaeu",
  country: "RU",
  title: "Выполнение работ по капитальному ремонту автомобильной дороги в г. Казани"
})
const armenianRoof = record({
  id: "gnumner-1",
  source: "gnumner",
  country: "AM",
  title: "Գյումրիի դպրոցների տանիքների վերանորոգման աշխատանքներ"
})
const germanSchool = record({ id: "ted-1-2026", country: "DE", title: "Sanierung des Daches der Schule" })

const matches = (q: string, tender: TenderRecord) =>
  hasEveryClause(analyzer.queryPlan(q).clauses, analyzer.documentTerms(tender))
const score = (q: string, tender: TenderRecord) => relevance(analyzer.queryPlan(q), analyzer.documentTerms(tender))

describe("the text analysis", () => {
  it("finds tenders across languages through concepts: English, Russian, Armenian, German", () => {
    expect(matches("road repair", russianRoad)).toBe(true)
    expect(matches("school roof repair", armenianRoof)).toBe(true)
    expect(matches("ремонт кровли школы", armenianRoof)).toBe(true)
    expect(matches("Schule Dach", armenianRoof)).toBe(true)
    expect(matches("school roof", germanSchool)).toBe(true)
    expect(matches("road repair", germanSchool)).toBe(false)
  })

  it("splits German compounds into glossary words only, in tenders and in queries", () => {
    const compound = record({ id: "ted-2-2026", country: "DE", title: "Straßensanierung in Köln" })
    expect(matches("road repair", compound)).toBe(true)
    expect(matches("ремонт дорог", compound)).toBe(true)
    expect(matches("Straßensanierung", russianRoad)).toBe(true)
    // Not split: a part that is no glossary word; a French tender (French does not compound).
    const plain = record({ id: "ted-3-2026", country: "DE", title: "Bahnhofsvorplatzgestaltung" })
    expect([...analyzer.documentTerms(plain).keys()].filter((term) => term.startsWith("c:"))).toEqual([])
    const french = record({ id: "ted-4-2026", country: "FR", title: "Straßensanierung" })
    expect(matches("road repair", french)).toBe(false)
  })

  it("splits compounds into the words of the classification labels too, so split forms meet them", () => {
    const compound = record({ id: "ted-5-2026", country: "DE", title: "Abwasserentsorgung" })
    const split = record({ id: "ted-6-2026", country: "DE", title: "Entsorgung von Abwasser" })
    expect(matches("Entsorgung Abwasser", compound)).toBe(true)
    expect(matches("Abwasserentsorgung", split)).toBe(true)
    // A compound of a compound: its tail is split again.
    expect(
      matches("Entsorgung Abwasser", record({ id: "ted-7-2026", country: "DE", title: "Abwasserentsorgungsanlage" }))
    ).toBe(true)
    // A part is a word of the notice's own languages: the Swedish "tung" (heavy) is no part of a German word.
    const german = record({ id: "ted-8-2026", country: "DE", title: "Gebäudeverwaltung" })
    expect(analyzer.documentTerms(german).has("tung")).toBe(false)
  })

  it("splits a compound only into two known words of one language, or before a glossary word", () => {
    const terms = (title: string, country = "DE") => [
      ...analyzer.documentTerms(record({ id: "ted-9-2026", country, title })).keys()
    ]
    // "Entsorgung" is a label word, "Bahnhof" is none: the letters before a known word are no reason to split.
    expect(terms("Bahnhofsentsorgung")).not.toContain("entsorg")
    expect(terms("Abwasserentsorgung")).toEqual(expect.arrayContaining(["abwass", "entsorg"]))
    // "Straße" is a glossary word: its compounds are split whatever is before it.
    expect(terms("Bahnhofsstraße")).toContain("c:road")
    // A Swedish word at the end of a German word is no part: "Schlichtung" is not "Schlich" + "tung".
    expect(terms("Schlichtung")).not.toContain("tung")
  })

  it("names a code by its label's content words, stop words aside; the code answers its label's generic words", () => {
    // "system" is in more than five English labels here, so it is generic: it names no code by itself.
    const systems = ["Heating", "Alarm", "Ventilation", "Drainage", "Irrigation", "Lighting"].map((word, i) => ({
      code: `4533000${i}`,
      labels: { en: `${word} system` }
    }))
    const labels = indexLabels(
      [{ code: "33661000", labels: { en: "Medicinal products for the nervous system" } }, ...systems],
      readStopWords()
    )
    expect(labels[0]).toEqual({
      code: "33661000",
      language: "en",
      stems: ["medicin", "nervous", "product"],
      others: ["system"]
    })
    const withLabels = makeAnalyzer(buildLexicon({ ...lexiconData, labels }), readStopWords())
    const analgesic = record({
      id: "ted-10-2026",
      country: "FR",
      title: "Kétorolac injectable",
      cpvCodes: ["33661200"]
    })
    const plan = withLabels.queryPlan("medicinal products for the nervous system")
    expect(plan.also).toContain("CPV 33661")
    expect(hasEveryClause(plan.clauses, withLabels.documentTerms(analgesic))).toBe(true)
  })

  it("reads a label up to its exception: what a code does not cover names neither the code nor its concepts", () => {
    expect(labelScope("en", "Office equipment except furniture").trim()).toBe("office equipment")
    expect(labelScope("fr", "Équipement de bureau, à l'exception du mobilier")).not.toContain("mobilier")
    expect(labelScope("ru", "Бумага (кроме газетной); картон")).toContain("картон")
    expect(labelScope("fi", "Toimistolaitteet, paitsi huonekalut")).toBe("Toimistolaitteet, paitsi huonekalut")
    const labels = indexLabels(
      [{ code: "30191000", labels: { en: "Office equipment except furniture" } }],
      readStopWords()
    )
    expect(labels.map((label) => label.stems)).toEqual([["equip", "offic"]])
    const withFurniture = makeAnalyzer(
      buildLexicon({
        ...lexiconData,
        glossary: [...lexiconData.glossary, { id: "furniture", terms: { en: ["furniture"], ru: ["мебель"] } }],
        cpvEnglish: [...lexiconData.cpvEnglish, { code: "30191000", label: "Office equipment except furniture" }]
      }),
      readStopWords()
    )
    const copiers = record({ id: "ted-11-2026", country: "IE", title: "Photocopiers", cpvCodes: ["30191000"] })
    expect(hasEveryClause(withFurniture.queryPlan("мебель").clauses, withFurniture.documentTerms(copiers))).toBe(false)
  })

  it("finds a notice naming a town by the region it lies in, not a notice naming the region by the town", () => {
    const town = record({ id: "gnumner-2", source: "gnumner", country: "AM", title: "Մեղրու դպրոցի վերանորոգում" })
    const region = record({ id: "gnumner-3", source: "gnumner", country: "AM", title: "Սյունիքի մարզի դպրոցներ" })
    expect(matches("Syunik", town)).toBe(true)
    expect(matches("Сюник", town)).toBe(true)
    expect(matches("Meghri", region)).toBe(false)
    // Named in the title, the region ranks above a notice that lies in it.
    expect(score("Syunik", region)).toBeGreaterThan(score("Syunik", town))
  })

  it("finds a notice naming a kind by the class it belongs to (broader), below one naming the class", () => {
    const withKinds = makeAnalyzer(
      buildLexicon({
        ...lexiconData,
        glossary: [
          ...lexiconData.glossary,
          { id: "computers", terms: { en: ["computers"], ru: ["компьютеры"], hy: ["համակարգիչներ"] } },
          {
            id: "laptops",
            terms: { en: ["laptops"], ru: ["ноутбуки"], hy: ["նոութբուքեր"] },
            broader: ["portables"]
          },
          {
            id: "portables",
            terms: { en: ["portable devices"], ru: ["портативные устройства"], hy: ["շարժական սարքեր"] }
          },
          { id: "hospital", terms: { en: ["hospital"], ru: ["больница"], hy: ["հիվանդանոց"] } },
          {
            id: "maternity",
            terms: { en: ["maternity hospital"], ru: ["роддом"], hy: ["ծննդատուն"] },
            broader: ["hospital"]
          }
        ].map((entry) => (entry.id === "portables" ? { ...entry, broader: ["computers"] } : entry))
      }),
      readStopWords()
    )
    const terms = (tender: TenderRecord) => withKinds.documentTerms(tender)
    const laptops = record({
      id: "eaeu-7",
      source: "eaeu",
      country: "RU",
      title: "Поставка ноутбуков",
      buyer: "Роддом № 2"
    })
    const computers = record({ id: "eaeu-8", source: "eaeu", country: "RU", title: "Поставка компьютеров" })
    const plan = withKinds.queryPlan("computers")
    // At every remove (laptops -> portable devices -> computers), as low as its codes; a party's as its parties.
    expect(terms(laptops).get("c:portables")).toBe("codes")
    expect(terms(laptops).get("c:computers")).toBe("codes")
    expect(terms(laptops).get("c:hospital")).toBe("parties")
    expect(hasEveryClause(plan.clauses, terms(laptops))).toBe(true)
    expect(relevance(plan, terms(computers))).toBeGreaterThan(relevance(plan, terms(laptops)))
    // Not the other way: a notice naming the class is not one of each of its kinds.
    expect(hasEveryClause(withKinds.queryPlan("laptops").clauses, terms(computers))).toBe(false)
    expect(terms(computers).has("c:laptops")).toBe(false)
  })

  it("drops elided articles and the English possessive's s, so the word after them is a word of its own", () => {
    const texts = (text: string) => wordsOf(text).map((word) => word.text)
    expect(texts("Rénovation de l'école d'Angers")).toEqual(["rénovation", "de", "école", "angers"])
    expect(texts("Ristrutturazione dell'ospedale")).toEqual(["ristrutturazione", "ospedale"])
    expect(texts("Children’s hospital")).toEqual(["children", "hospital"])
    // Not an elision: an apostrophe with no letter after it, or a word that is no article.
    expect(texts("l' ecole")).toEqual(["l", "ecole"])
    expect(texts("O'Brien")).toEqual(["o", "brien"])
  })

  it("stems each language with its own stemmer, Armenian with its noun endings", () => {
    expect(armenianStem("դպրոցների")).toBe("դպրոց")
    expect(armenianStem("դպրոցի")).toBe("դպրոց")
    expect(armenianStem("վերանորոգման")).toBe(armenianStem("վերանորոգում"))
    expect(armenianStem("ճանապարհային")).toBe("ճանապարհ")
    expect(matches("ремонтом дорог", russianRoad)).toBe(true)
    expect(matches("դպրոց", armenianRoof)).toBe(true)
    expect(matches("Schulen", germanSchool)).toBe(true)
  })

  it("stems Polish with its case endings: a word's forms meet, in a Polish notice and a query alike", () => {
    const forms = (words: string) => new Set(words.split(" ").map(polishStem).map(foldLatin))
    expect(forms("drogi dróg drogą drogę drogach")).toEqual(new Set(["drog"]))
    expect(forms("krajowa krajowej krajowych krajowym")).toEqual(new Set(["krajow"]))
    expect(forms("wykonanie wykonania wykonaniu wykonaniem")).toEqual(new Set(["wykonan"]))
    expect(forms("szkoła szkoły szkole szkół")).toEqual(new Set(["szkol"]))
    // A stem keeps three letters: "lek" (a drug) is its own stem, and "leki", "leków" meet it.
    expect(forms("lek leki leków")).toEqual(new Set(["lek"]))
    expect(polishStem("oko")).toBe("oko")
    const polishRoad = record({ id: "ted-3-2026", country: "PL", title: "Remont drogi krajowej nr 8" })
    expect(matches("remonty dróg krajowych", polishRoad)).toBe(true)
    expect(matches("krajowa", polishRoad)).toBe(true)
  })

  it("finds places in any script: exonyms and transliteration", () => {
    expect(matches("Gyumri", armenianRoof)).toBe(true)
    expect(matches("Гюмри", armenianRoof)).toBe(true)
    expect(matches("Kazan", russianRoad)).toBe(true)
    const munich = record({ id: "ted-2-2026", country: "DE", title: "Reinigung", region: "DE212" })
    expect(matches("Munich", munich)).toBe(true)
    expect(matches("Мюнхен", munich)).toBe(true)
  })

  it("matches codes: CPV with or without check digit, prefixes, OKPD2 with dots, through the crosswalk", () => {
    const diesel = record({
      id: "eaeu-2",
      source: "eaeu",
      country: "RU",
      title: "Топливо",
      okpd2Codes: ["19.20.21.300"]
    })
    expect(matches("19.20.21", diesel)).toBe(true)
    expect(matches("09134200-9", diesel)).toBe(true)
    expect(matches("0913", diesel)).toBe(true)
    expect(matches("diesel fuel", diesel)).toBe(true)
    const ted = record({ id: "ted-3-2026", title: "Fuel", cpvCodes: ["09134200"] })
    expect(matches("19.20", ted)).toBe(true)
    expect(matches("45", ted)).toBe(false)
  })

  it("gives a Russian notice the concepts of its OKPD2 codes' labels, up to their exception", () => {
    const coded = (code: string) =>
      record({ id: `eaeu-${code}`, source: "eaeu", country: "RU", title: "Закупка № 17", okpd2Codes: [code] })
    // "кровли" and "дорог" are the concepts roof and road, which every language's query names.
    expect(matches("roof", coded("43.99.10.110"))).toBe(true)
    expect(matches("ճանապարհ", coded("43.99.10.110"))).toBe(true)
    expect(analyzer.documentTerms(coded("43.99.10.110")).get("c:roof")).toBe("codes")
    // What the label excepts ("кроме ... кровли") is not what the code holds; an unknown code names nothing.
    expect(matches("roof", coded("43.99.10.120"))).toBe(false)
    expect(matches("roof", coded("43.99.10.190"))).toBe(false)
  })

  it("finds a tender by a code its subject names (a CPV label's concepts), after those classified under it", () => {
    const catchAll = { source: "eaeu" as const, country: "RU", okpd2Codes: ["43.99.90.190"] }
    const russianRoof = record({ id: "eaeu-3", ...catchAll, title: "Выполнение работ по ремонту кровли здания школы" })
    const armenianRoofTender = record({ ...armenianRoof, id: "gnumner-2" })
    const classified = record({ id: "ted-6-2026", title: "Dachsanierung", country: "DE", cpvCodes: ["45261910"] })
    for (const tender of [russianRoof, armenianRoofTender, classified]) expect(matches("45261910", tender)).toBe(true)
    expect(score("45261910", classified)).toBeGreaterThan(score("45261910", russianRoof))
    // A sibling of its CPV category ("Roof-covering work"), and an OKPD2 code through the crosswalk (43.91 roofing).
    expect(matches("45261210", russianRoof)).toBe(true)
    expect(matches("43.91", armenianRoofTender)).toBe(true)
    // Not named: a roof that is not repaired; an English label read in another language (the Finnish "tie", road).
    expect(matches("45261910", record({ id: "eaeu-4", ...catchAll, title: "Поставка кровельных материалов" }))).toBe(
      false
    )
    expect(matches("18423000", record({ id: "ted-7-2026", country: "FI", title: "Tien korjaus" }))).toBe(false)
    // A notice's words name codes by the labels of its own languages: "racks" is no Swedish "räcke" in English.
    expect(matches("34928120", record({ id: "ted-8-2026", country: "SE", title: "Räcken längs vägen" }))).toBe(true)
    expect(matches("34928120", record({ id: "ted-9-2026", country: "DE", title: "Racks for kayaks" }))).toBe(false)
    // A name is never a classification: the `cpv` filter's prefixes are the tender's codes only.
    expect([...analyzer.documentTerms(russianRoof).keys()].filter((t) => t.startsWith("cpv:452"))).toEqual([])
  })

  it('reads a stem as a word only in the languages whose stemmer makes it: the Hungarian stem of "card" is no car', () => {
    const withCars = makeAnalyzer(
      buildLexicon({
        ...lexiconData,
        glossary: [...lexiconData.glossary, { id: "vehicles", terms: { en: ["car", "cars"] } }],
        labels: indexLabels([{ code: "34110000", labels: { en: "Passenger cars" } }], readStopWords())
      }),
      readStopWords()
    )
    const terms = (q: string) => withCars.queryPlan(q).clauses.flatMap((c) => [...c.alternatives].map((a) => a.term))
    // "car" is a form of "card" (Hungarian), but neither the English concept nor the English label's code follow it.
    expect(terms("card")).toContain("car")
    expect(terms("card")).not.toContain("c:vehicles")
    expect(terms("card passenger")).not.toContain("cpv:3411")
    expect(terms("cars")).toContain("c:vehicles")
    expect(terms("passenger cars")).toContain("cpv:3411")
    // A Hungarian notice's words are read by the Hungarian stemmer too, and the same way.
    const hungarian = (title: string) => withCars.documentTerms(record({ id: "ted-10-2026", country: "HU", title }))
    expect(hungarian("Card readers").has("car")).toBe(true)
    expect(hungarian("Card readers").has("c:vehicles")).toBe(false)
    expect(hungarian("Cars for the municipality").has("c:vehicles")).toBe(true)
  })

  it("reads a misspelt word in its phrase once corrected, and names no code from generic words", () => {
    const typo = analyzer.queryPlan("ремонт автомобильной дароги")
    const fixed = analyzer.corrected(typo, new Map([["дароги", "дороги"]]))
    expect(fixed.corrections).toEqual([["дароги", "дороги"]])
    expect(fixed.clauses.map((c) => c.text)).toEqual(["ремонт", "автомобильной", "дароги"])
    expect(fixed.clauses[1]?.alternatives).toContainEqual({ term: "c:road", kind: "concept" })
    expect(fixed.clauses[2]?.alternatives.every((a) => a.kind === "correction")).toBe(true)
    expect(hasEveryClause(fixed.clauses, analyzer.documentTerms(russianRoad))).toBe(true)
    // "поставка" (supply, generic) is the Bulgarian for a stand: no tool holders for it.
    const supply = analyzer.queryPlan("поставка")
    expect(supply.clauses.flatMap((c) => c.alternatives.map((a) => a.term))).not.toContain("cpv:42671")
  })

  it("ranks title above buyer, words above concepts, and weighs generic words low", () => {
    const inTitle = record({ id: "ted-4-2026", title: "Road repair works" })
    const inBuyer = record({ id: "ted-5-2026", title: "Works", buyer: "Road repair agency" })
    expect(score("road repair", inTitle)).toBeGreaterThan(score("road repair", inBuyer))
    expect(score("road repair", inTitle)).toBeGreaterThan(score("road repair", russianRoad))
    const plan = analyzer.queryPlan("supply of roof")
    expect(plan.clauses.map((c) => [c.text, c.weight])).toEqual([
      ["supply", 0.3],
      ["roof", 1]
    ])
  })

  it("meets no stop word through a stem: a short acronym is itself, a form of another language no article", () => {
    // The Spanish stem of the acronym "DEA" (defibrillator) is "de": it is the acronym, not every "de" of a text.
    const metro = record({ id: "ted-6-2026", country: "ES", title: "Mantenimiento", buyer: "Metro de Madrid, S.A." })
    expect(analyzer.documentTerms(metro).has("c:defibrillators")).toBe(false)
    const dea = record({ id: "ted-7-2026", country: "ES", title: "Suministro de DEA para estaciones" })
    expect(analyzer.documentTerms(dea).has("c:defibrillators")).toBe(true)
    expect(matches("defibrillator", dea)).toBe(true)
    // The Danish stem of "laser" is "las", the Spanish article: not searched.
    const spanish = record({ id: "ted-8-2026", country: "ES", title: "Mantenimiento de las aplicaciones" })
    expect(matches("laser", spanish)).toBe(false)
    const laser = record({ id: "ted-9-2026", country: "DK", title: "Levering af laser til hospitalet" })
    expect(matches("laser", laser)).toBe(true)
    expect(matches("lasere", laser)).toBe(true)
  })

  it("matches a term written =word as written, not by its stem", () => {
    // "publicidade" (advertising) and "público" (public) have one Portuguese stem, "public".
    const ad = record({ id: "ted-10-2026", country: "PT", title: "Serviços de publicidade institucional" })
    const works = record({ id: "ted-11-2026", country: "PT", title: "Concurso público para obras" })
    expect(matches("реклама", ad)).toBe(true)
    expect(matches("реклама", works)).toBe(false)
    const campaign = record({ id: "ted-12-2026", country: "PT", title: "Campanhas publicitárias de verão" })
    expect(matches("advertising", campaign)).toBe(true) // a term without the mark is matched by its stems
    expect(analyzer.queryPlan("реклама").also).toContain("advertising") // named without the mark
  })

  it("says what else was searched, and drops stop words", () => {
    const plan = analyzer.queryPlan("road repair")
    expect(plan.also).toEqual(expect.arrayContaining(["дорога", "ճանապարհ", "ремонт", "վերանորոգում"]))
    expect(analyzer.queryPlan("the and of").clauses).toEqual([])
  })
})

describe("the crosswalk from CPV to OKPD2, taken by the query", () => {
  // On the shipped data: a typed OKPD2 level matches a tender exactly when the tender would hold that level had the
  // links of its CPV prefixes (its own, and those its OKPD2 codes link to) been stored with it, every level of every
  // linked code (how tenders were indexed before; the query now asks for the linked CPV prefixes instead).
  const shipped = readLexiconData()
  const shippedAnalyzer = makeAnalyzer(buildLexicon(shipped, readStopWords()), readStopWords())
  const okpd2Levels = (code: string) =>
    [...code].flatMap((c, i) => (/\d/u.test(c) && i >= 1 ? [code.slice(0, i + 1)] : []))
  const linked = new Map<string, Array<string>>()
  for (const link of shipped.crosswalk) linked.set(link.cpv, [...(linked.get(link.cpv) ?? []), link.okpd2])
  // A query reads an OKPD2 code by its dots: "42" alone is a CPV division.
  const levels = [...new Set(shipped.crosswalk.flatMap((link) => okpd2Levels(link.okpd2)))].filter((l) =>
    l.includes(".")
  )
  const plans = levels.map((level) => ({ level, clauses: shippedAnalyzer.queryPlan(level).clauses }))
  const expectedLevels = (tender: TenderRecord) => {
    const terms = shippedAnalyzer.documentTerms(tender)
    const cpvPrefixes = [...terms.keys()].filter((t) => t.startsWith("cpv:")).map((t) => t.slice(4))
    return new Set([
      ...tender.okpd2Codes.flatMap(okpd2Levels),
      ...cpvPrefixes.flatMap((p) => (linked.get(p) ?? []).flatMap(okpd2Levels))
    ])
  }

  it("finds in the shipped glossary no concept through a stem shared with words of another meaning", () => {
    const conceptsOf = (country: string, title: string) =>
      [...shippedAnalyzer.documentTerms(record({ id: "ted-1-2026", country, title })).keys()].filter((t) =>
        t.startsWith("c:")
      )
    expect(conceptsOf("PT", "Concurso público")).not.toContain("c:advertising")
    expect(conceptsOf("PT", "Serviços de publicidade")).toContain("c:advertising")
    expect(conceptsOf("IE", "Repair of bus engines")).not.toContain("c:engineering_services")
    expect(conceptsOf("IE", "Civil engineering services")).toContain("c:engineering_services")
    expect(conceptsOf("IT", "Manutenzione del sistema informativo")).not.toContain("c:improvement")
    // A one-word term whose short stem another concept's term shares is matched as written: the French "route"
    // (road) and the German "Router" are both "rout", which "routing" also is; the route itself still is a road.
    expect(conceptsOf("IE", "Routing software")).not.toContain("c:road")
    expect(conceptsOf("FR", "Réfection de la route départementale")).toContain("c:road")
    // A one-word term that a stop word of some language is, or stems to, is no concept in a text: "thé" (tea) is the
    // English "the", the Swedish "by" (village) the English "by", "vans" (trucks) stems to the Dutch "van".
    const plain = conceptsOf("IE", "Supply of the equipment required by the council")
    expect(plain).not.toContain("c:beverages")
    expect(plain).not.toContain("c:village")
    expect(conceptsOf("NL", "Levering van meubilair")).not.toContain("c:truck")
    expect(conceptsOf("IT", "Fornitura di metano")).toContain("c:natural_gas") // its stem "met" is a stop word
  })

  it("matches a tender classified in CPV, or in OKPD2, by every level its links reach and no other", () => {
    const cpvCodes = readCpv().map((row) => row.code)
    const okpd2Codes = [...new Set(shipped.crosswalk.map((link) => link.okpd2))]
    const tenders = [
      ...cpvCodes
        .filter((_, i) => i % 97 === 0)
        .map((code, i) => record({ id: `ted-${i}-2026`, title: "x", cpvCodes: [code] })),
      ...okpd2Codes
        .filter((_, i) => i % 3 === 0)
        .map((code, i) => record({ id: `eaeu-${i}`, source: "eaeu", country: "RU", title: "x", okpd2Codes: [code] }))
    ]
    let matched = 0
    for (const tender of tenders) {
      const expected = expectedLevels(tender)
      const terms = shippedAnalyzer.documentTerms(tender)
      for (const { level, clauses } of plans) {
        const found = hasEveryClause(clauses, terms)
        if (found !== expected.has(level)) expect({ tender: tender.id, level, found }).toEqual({ expected: !found })
        if (found) matched++
      }
    }
    expect(tenders.length).toBeGreaterThan(150)
    expect(matched).toBeGreaterThan(500)
  })
})

describe("the shipped CPV label index", () => {
  it("is what the generator makes of cpv.jsonl (regenerate with scripts/label-index.ts)", () => {
    const shipped = readFileSync(join(dataDirectory, "classifications", "cpv-label-index.jsonl"), "utf8")
    expect(shipped === labelIndexLines(shippedLabels(readStopWords()))).toBe(true)
  })

  it("and the compound parts are what it makes of cpv.jsonl", () => {
    const shipped = readFileSync(join(dataDirectory, "classifications", "compound-parts.json"), "utf8")
    expect(shipped === compoundPartsText(compoundPartsOf(readCpv(), readStopWords()))).toBe(true)
  })
})

describe("the labels sources publish beside their codes", () => {
  it("name their code for a query, in the source's language, without changing the analysis' version", () => {
    const text = searchTextFromFiles()
    const version = text.version
    const codesOf = (q: string) => text.queryPlan(q).clauses.flatMap((c) => c.alternatives.map((a) => a.term))
    expect(codesOf("թուջե կափարիչներ")).not.toContain("cpv:441313")
    // A query's plan is worked out once and kept, until the labels change.
    expect(text.queryPlan("թուջե կափարիչներ")).toBe(text.queryPlan("թուջե կափարիչներ"))
    text.useSourceLabels([{ code: "44131300", language: "hy", name: "թուջե կափարիչներ" }])
    expect(text.sourceLabelCount).toBe(1)
    expect(codesOf("թուջե կափարիչներ")).toContain("cpv:441313")
    expect(text.queryPlan("թուջե կափարիչների մատակարարում").also).toContain("CPV 441313")
    // A tender of another source coded under it is found by the Armenian words, and no tender's terms change.
    const ted = record({ id: "ted-12-2026", country: "DE", title: "Schachtabdeckungen", cpvCodes: ["44131300"] })
    expect(hasEveryClause(text.queryPlan("թուջե կափարիչներ").clauses, text.documentTerms(ted))).toBe(true)
    expect(text.version).toBe(version)
    expect([...text.documentTerms(ted).keys()].some((term) => term.includes("կափարիչ"))).toBe(false)
  })
})
