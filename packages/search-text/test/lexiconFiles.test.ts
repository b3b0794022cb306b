import { assert, describe, it } from "@effect/vitest"
import { parseLexiconData, readLexiconFiles, readStopWords } from "../src/LexiconFiles.ts"

describe("the lexicon's files", () => {
  const files = readLexiconFiles()
  const withLine = (text: string, index: number, line: string) =>
    text
      .split("\n")
      .map((before, i) => (i === index ? line : before))
      .join("\n")

  it("refuse a line that is not what its file holds, naming the file and the line", () => {
    assert.throws(
      () => parseLexiconData({ ...files, glossary: withLine(files.glossary, 2, '{"id": "road", "en": "road"}') }),
      /^glossary\.jsonl, line 3: Expected array\n {2}at \["en"\]$/u
    )
    assert.throws(
      () => parseLexiconData({ ...files, places: withLine(files.places, 0, '{"id": "yerevan", "names": {"en": ') }),
      /^places\.jsonl, line 1: SyntaxError/u
    )
    assert.throws(
      () => parseLexiconData({ ...files, crosswalk: withLine(files.crosswalk, 4, '{"okpd2": "01", "cpv": "03"}') }),
      /^classifications\/cpv-okpd2\.jsonl, line 5: Missing key\n {2}at \["precision"\]$/u
    )
  })

  it("read a glossary line's terms by language, apart from its own keys", () => {
    const [entry] = parseLexiconData({
      ...files,
      glossary: '{"id": "supply", "generic": true, "en": ["supply"], "ru": ["поставка"], "broader": ["goods"]}\n'
    }).glossary
    assert.deepStrictEqual(entry, {
      id: "supply",
      generic: true,
      broader: ["goods"],
      terms: { en: ["supply"], ru: ["поставка"] }
    })
  })

  it("read the stop words of every language, not the note on their source", () => {
    const stopWords = readStopWords()
    assert.isTrue(stopWords.has("the") && stopWords.has("и") && stopWords.has("և"))
    assert.isFalse([...stopWords].some((word) => word.includes(" ")))
  })
})
