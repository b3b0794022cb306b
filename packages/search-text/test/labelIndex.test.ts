import { assert, describe, it } from "@effect/vitest"
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { labelIndex, packedStrings } from "../src/LabelIndex.ts"
import type { LabelMatch } from "../src/Labels.ts"
import { dataDirectory, parseLexiconData, lexiconOnDisk, readLexiconFiles } from "../src/LexiconFiles.ts"
import { searchTextFromFiles } from "../src/Layer.ts"

/** The labels by content stem as a map of lists, as the lexicon kept them before they were packed. */
const byStem = (labels: ReadonlyArray<LabelMatch>) => {
  const map = new Map<string, Array<LabelMatch>>()
  for (const label of labels) for (const stem of label.stems) map.set(stem, [...(map.get(stem) ?? []), label])
  return map
}

describe("packed strings", () => {
  it("give each string its number and each number its string, and no number to another string", () => {
    // Latin, Cyrillic and Armenian, the empty string, prefixes of one another, and enough to fill the table's probes.
    const texts = [
      "medicin",
      "медицин",
      "դեղ",
      "",
      "med",
      "medicine",
      ...Array.from({ length: 5000 }, (_, i) => `w${i}`)
    ]
    const packed = packedStrings(texts)
    assert.strictEqual(packed.size, texts.length)
    for (const [id, text] of texts.entries()) {
      assert.strictEqual(packed.idOf(text), id)
      assert.strictEqual(packed.textOf(id), text)
    }
    for (const other of ["medici", "medicinе", "w5000", "W1", "դեղե", " "])
      assert.strictEqual(packed.idOf(other), undefined)
    assert.strictEqual(packedStrings([]).idOf("any"), undefined)
  })

  it("take no string for a longer one it begins, nor for a shorter one, met in the same slot", () => {
    // One string a table (16 slots): over a thousand of them, one in sixteen is where the other's probe starts.
    for (let k = 0; k < 1000; k++) {
      assert.strictEqual(packedStrings([`a${k}`]).idOf("a"), undefined)
      assert.strictEqual(packedStrings(["a"]).idOf(`a${k}`), undefined)
    }
  })
})

describe("the packed label index", () => {
  it("gives each content stem its labels in order, with their other stems and scheme, and none for another", () => {
    const labels: ReadonlyArray<LabelMatch> = [
      { code: "33661000", language: "en", stems: ["medicin", "nervous"], others: ["product", "system"] },
      { code: "21.20.10.232", language: "ru", stems: ["анальгетик"], scheme: "okpd2" },
      { code: "33600000", language: "en", stems: ["pharmaceut", "medicin"] }
    ]
    const index = labelIndex(labels)
    assert.deepStrictEqual(index.get("medicin"), [labels[0], labels[2]])
    assert.deepStrictEqual(index.get("анальгетик"), [labels[1]])
    assert.strictEqual(index.get("system"), undefined) // a generic stem names no label
    assert.strictEqual(index.get("roof"), undefined)
  })

  it("gives every stem of the shipped labels what a map of lists by stem gives", () => {
    const labels = [...parseLexiconData(readLexiconFiles()).labels]
    const expected = byStem(labels)
    const index = labelIndex(labels)
    let compared = 0
    for (const [stem, list] of expected) {
      const found = index.get(stem)
      if (found?.length !== list.length) assert.deepStrictEqual({ stem, found }, { stem, found: list })
      for (let i = 0; i < list.length; i++)
        if (JSON.stringify(found?.[i]) !== JSON.stringify(list[i])) assert.deepStrictEqual(found?.[i], list[i])
      compared += list.length
    }
    assert.isAbove(expected.size, 100_000)
    assert.isAbove(compared, 500_000)
  })
})

describe("the lexicon's files read a chunk at a time", () => {
  it("decode, a line at a time, to what their text decodes to", () => {
    const fromText = parseLexiconData(readLexiconFiles())
    const fromBytes = parseLexiconData(lexiconOnDisk())
    assert.deepStrictEqual(fromBytes.glossary, fromText.glossary)
    assert.deepStrictEqual(fromBytes.places, fromText.places)
    assert.deepStrictEqual(fromBytes.cpvEnglish, fromText.cpvEnglish)
    assert.deepStrictEqual(fromBytes.compoundParts, fromText.compoundParts)
    const [textLabels, byteLabels] = [[...fromText.labels], [...fromBytes.labels]]
    assert.strictEqual(byteLabels.length, textLabels.length)
    assert.strictEqual(JSON.stringify(byteLabels), JSON.stringify(textLabels))
  })

  it("fail on a label line that is not one when the lexicon reads the labels, naming the file and the line", () => {
    const files = readLexiconFiles()
    const lines = files.labels.split("\n")
    lines[3] = '{"code": "03000000", "language": "bg"}'
    const data = parseLexiconData({ ...files, labels: lines.join("\n") })
    assert.throws(
      () => [...data.labels],
      /^classifications\/cpv-label-index\.jsonl, line 4: Missing key\n {2}at \["stems"\]$/u
    )
  })

  it("are read again when the lexicon is built, and refused if they changed since the version was taken", () => {
    const directory = mkdtempSync(join(tmpdir(), "tenders-lexicon-"))
    try {
      cpSync(dataDirectory, directory, { recursive: true })
      const text = searchTextFromFiles(directory)
      const version = text.version
      appendFileSync(join(directory, "places.jsonl"), "\n")
      assert.throws(() => text.queryPlan("roof repair"), /changed since the process started: restart it/u)
      assert.notStrictEqual(searchTextFromFiles(directory).version, version)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it("are read when the analysis is prepared, not at the first query after it", () => {
    const directory = mkdtempSync(join(tmpdir(), "tenders-lexicon-"))
    try {
      cpSync(dataDirectory, directory, { recursive: true })
      const text = searchTextFromFiles(directory)
      text.prepare()
      // Built: a change of the files now is not read (the version was taken, as a running server's is).
      appendFileSync(join(directory, "places.jsonl"), "\n")
      assert.isAbove(text.queryPlan("roof repair").clauses.length, 0)
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
})
