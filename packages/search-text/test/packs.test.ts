import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { type ClassificationPack, type PackCode, type PackData } from "@tenders/core"
import { cpvRuPack, okpd2Pack, parsePack, searchTextFromFiles } from "../src/index.ts"

// Small excerpts typed here in the packs' formats (the real tables are imported by operators, not shipped).
const table = [
  "A \tПродукция сельского, лесного и рыбного хозяйства",
  "21 \tСредства лекарственные и материалы, применяемые в медицинских целях",
  "21.2 \tПрепараты лекарственные и материалы, применяемые в медицинских целях",
  "21.20 \tПрепараты лекарственные и материалы, применяемые в медицинских целях",
  "21.20.1 \tПрепараты лекарственные",
  "21.20.10 \tПрепараты лекарственные",
  "21.20.10.110 \tПрепараты лекарственные, содержащие пенициллины"
].join("\n")
const edition = [
  '"Name";"global_id";"Razdel";"Kod";"Nomdescr";"Idx";',
  '"Препараты лекарственные, содержащие пенициллины";"1";"C";"21.20.10.110";"";"";',
  '"Препараты лекарственные прочие";"2";"C";"21.20.10.000";"";"";',
  '"Раздел";"3";"C";"C";"";"";'
].join("\n")

// The EIS reference data of OKPD2 as its 44-FZ export writes it (namespaces, an item's older version withdrawn, a
// lettered section, a code no longer in force, an entity in a name).
const reference = `<?xml version="1.0" encoding="UTF-8"?>
<ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1" xmlns="http://zakupki.gov.ru/oos/types/1">
  <ns2:nsiOKPD2List>
    <ns2:nsiOKPD2><code>C</code><name>Продукция обрабатывающих производств</name><actual>true</actual></ns2:nsiOKPD2>
    <ns2:nsiOKPD2><id>2</id><code>21</code><name>Средства лекарственные</name><actual>true</actual></ns2:nsiOKPD2>
    <ns2:nsiOKPD2>
      <id>3</id><parentId>2</parentId><parentCode>21</parentCode><code>21.20.10.110</code>
      <name>Препараты лекарственные, содержащие пенициллины &amp; иные</name><actual>false</actual>
    </ns2:nsiOKPD2>
    <ns2:nsiOKPD2>
      <id>4</id><parentId>2</parentId><parentCode>21</parentCode><code>21.20.10.110</code>
      <name>Препараты лекарственные, содержащие пенициллины</name><actual>true</actual>
    </ns2:nsiOKPD2>
    <ns2:nsiOKPD2>
      <id>5</id><code>21.20.10.000</code><name>Препараты лекарственные прочие</name><actual>false</actual>
    </ns2:nsiOKPD2>
  </ns2:nsiOKPD2List>
</ns2:export>
`

const failure = <A, E>(result: Result.Result<A, E>) => (Result.isFailure(result) ? result.failure : undefined)

describe("classification pack files", () => {
  it("reads OKPD2 codes in force from the table, and the codes an older edition has that are no longer in force", () => {
    const codes = Result.getOrThrow(
      okpd2Pack([
        { name: "okpd_table.tsv", text: table },
        { name: "okpd2.csv", text: edition }
      ])
    )
    assert.deepStrictEqual(
      codes.map((c) => [c.code, c.withdrawn]),
      [
        ["21", false],
        ["21.2", false],
        ["21.20", false],
        ["21.20.1", false],
        ["21.20.10", false],
        ["21.20.10.110", false],
        ["21.20.10.000", true]
      ]
    )
    assert.strictEqual(codes.find((c) => c.code === "21.20.10")?.label, "Препараты лекарственные")
    // The order of the files does not matter: each one's kind is told by its content.
    assert.deepStrictEqual(
      Result.getOrThrow(
        okpd2Pack([
          { name: "b.csv", text: edition },
          { name: "a.tsv", text: table }
        ])
      ),
      codes
    )
  })

  it("refuses a malformed file with its line and reason", () => {
    const broken = `${table}\n21.20.10.11X \tКод с буквой`
    assert.deepStrictEqual(failure(okpd2Pack([{ name: "okpd_table.tsv", text: broken }])), {
      file: "okpd_table.tsv",
      line: 8,
      reason: '"21.20.10.11X" is not an OKPD2 code'
    })
    assert.strictEqual(failure(okpd2Pack([{ name: "t.tsv", text: `${table}\n21.20 \tДважды` }]))?.line, 8)
    assert.strictEqual(
      failure(okpd2Pack([{ name: "t.tsv", text: "21.20 Без табуляции" }]))?.reason,
      "expected a code, a tab and a label"
    )
    assert.strictEqual(failure(okpd2Pack([{ name: "t.tsv", text: "21.20 \t " }]))?.reason, "21.20 has no label")
    assert.match(
      failure(okpd2Pack([{ name: "okpd2.csv", text: edition }]))?.reason ?? "",
      /one table of the codes in force/u
    )
    assert.match(
      failure(
        okpd2Pack([
          { name: "e.csv", text: '"Kod";"x"\n' },
          { name: "t.tsv", text: table }
        ])
      )?.reason ?? "",
      /one table/u
    )
  })

  it("reads EIS's nsiOKPD2 XML: a code in force unless not actual, an item's newest version", () => {
    const codes = Result.getOrThrow(okpd2Pack([{ name: "nsiOKPD2_all.xml", text: reference }]))
    assert.deepStrictEqual(codes, [
      { code: "21", label: "Средства лекарственные", withdrawn: false },
      { code: "21.20.10.110", label: "Препараты лекарственные, содержащие пенициллины", withdrawn: false },
      { code: "21.20.10.000", label: "Препараты лекарственные прочие", withdrawn: true }
    ])
    // With an older edition, which adds only the codes the reference data lacks.
    const withEdition = Result.getOrThrow(
      okpd2Pack([
        { name: "okpd2.csv", text: `${edition}\n"Препараты прочие";"4";"C";"21.20.10.900";"";"";` },
        { name: "nsiOKPD2_all.xml", text: reference }
      ])
    )
    assert.deepStrictEqual(
      withEdition.map((c) => [c.code, c.withdrawn]),
      [
        ["21", false],
        ["21.20.10.110", false],
        ["21.20.10.000", true],
        ["21.20.10.900", true]
      ]
    )
  })

  it("refuses a malformed nsiOKPD2 file with its line and reason, and a table given with it", () => {
    assert.deepStrictEqual(
      failure(okpd2Pack([{ name: "n.xml", text: reference.replace("<code>21</code>", "<code>21.2X</code>") }])),
      { file: "n.xml", line: 5, reason: '"21.2X" is not an OKPD2 code' }
    )
    const unclosed = failure(okpd2Pack([{ name: "n.xml", text: reference.replace("</ns2:nsiOKPD2List>", "") }]))
    assert.strictEqual(unclosed?.file, "n.xml")
    assert.match(unclosed?.reason ?? "", /^malformed XML: /u)
    assert.isAbove(unclosed?.line ?? 0, 0)
    assert.strictEqual(
      failure(okpd2Pack([{ name: "n.xml", text: reference.replace("<name>Средства лекарственные</name>", "") }]))
        ?.reason,
      "21 has no name"
    )
    assert.match(
      failure(okpd2Pack([{ name: "n.xml", text: "<export><other/></export>" }]))?.reason ?? "",
      /no nsiOKPD2 element/u
    )
    assert.match(
      failure(
        okpd2Pack([
          { name: "t.tsv", text: table },
          { name: "n.xml", text: reference }
        ])
      )?.reason ?? "",
      /one table of the codes in force .* not 1 table\(s\) and 1 XML file\(s\)/u
    )
  })

  it("reads the Russian CPV labels, leaving out those with no Russian text", () => {
    const json = JSON.stringify({
      "03000000-1": "03000000-1",
      "33600000-6": "Фармацевтическая продукция",
      "45233000-9": "Строительство, укладка фундаментов и дорожного покрытия",
      "48000000-8": "Software package and information systems"
    })
    assert.deepStrictEqual(Result.getOrThrow(cpvRuPack({ name: "cpv_ru.json", text: json })), [
      { code: "33600000", label: "Фармацевтическая продукция", withdrawn: false },
      { code: "45233000", label: "Строительство, укладка фундаментов и дорожного покрытия", withdrawn: false }
    ])
    const bad = '{\n  "33600000-6": "Фармацевтическая продукция",\n  "3360000-6": "Короткий код"\n}'
    assert.deepStrictEqual(failure(cpvRuPack({ name: "cpv_ru.json", text: bad })), {
      file: "cpv_ru.json",
      line: 3,
      reason: '"3360000-6" is not a CPV code with its check digit'
    })
    assert.strictEqual(
      failure(cpvRuPack({ name: "x.json", text: "[1,2]" }))?.reason,
      "expected one JSON object of code: label"
    )
    assert.strictEqual(failure(cpvRuPack({ name: "x.json", text: "{" }))?.reason, "not JSON")
    assert.match(failure(parsePack("cpv-ru", []))?.reason ?? "", /give one file/u)
  })
})

describe("the analysis with classification packs", () => {
  it("finds the OKPD2 codes and the CPV codes whose Russian labels a query names, in a new version", () => {
    const okpd2 = Result.getOrThrow(okpd2Pack([{ name: "t.tsv", text: table }]))
    const cpvRu: ReadonlyArray<PackCode> = [{ code: "33600000", label: "Фармацевтическая продукция", withdrawn: false }]
    const packs: PackData = {
      digest: "excerpt",
      packs: new Map<ClassificationPack, ReadonlyArray<PackCode>>([
        ["okpd2", okpd2],
        ["cpv-ru", cpvRu]
      ])
    }
    const text = searchTextFromFiles()
    const terms = (q: string) => text.queryPlan(q).clauses.flatMap((c) => c.alternatives.map((a) => a.term))
    const without = text.version
    assert.notInclude(terms("фармацевтическая продукция"), "cpv:336")
    assert.notInclude(terms("препараты лекарственные"), "okpd:21.20.10")
    text.usePacks(packs)
    assert.notStrictEqual(text.version, without)
    assert.strictEqual(text.packsDigest, "excerpt")
    assert.include(terms("фармацевтическая продукция"), "cpv:336")
    assert.include(terms("препараты лекарственные"), "okpd:21.20.10")
    assert.include(text.queryPlan("препараты лекарственные").also, "OKPD2 21.20.10")
    // The same packs again change nothing; none brings back the version without packs.
    const withPacks = text.version
    text.usePacks(packs)
    assert.strictEqual(text.version, withPacks)
    text.usePacks({ digest: "", packs: new Map() })
    assert.strictEqual(text.version, without)
  })
})
