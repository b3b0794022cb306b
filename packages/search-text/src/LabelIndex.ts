// The classification labels by content stem, as the lexicon keeps them: packed into typed arrays over one string per
// distinct code, language and stem, each label made again as a `LabelMatch` when a stem asks for it. The shipped CPV
// labels alone are 230,552 labels of 506,251 stems in 134,350 distinct ones: kept as objects, their arrays, a string
// per stem written and the lists of a map by stem, they held about 96 MB of heap, packed they hold about 15 MB.

import type { LabelMatch } from "./Labels.ts"
import { boundedMemo } from "./Memo.ts"

/** The labels having a content stem, in the order the index was given them (`undefined`: no label has it). */
export interface LabelIndex {
  readonly get: (stem: string) => ReadonlyArray<LabelMatch> | undefined
}

/**
 * How many stems' labels are kept as objects once made (`boundedMemo`): a query's forms ask for the same few stems
 * again, and an ingest's notices for their words'.
 */
const stemsKept = 4096

/** The strings of one kind, each once, by number. */
const stringTable = () => {
  const ids = new Map<string, number>()
  const texts: Array<string> = []
  const idOf = (text: string) => {
    let id = ids.get(text)
    if (id === undefined) {
      id = texts.length
      ids.set(text, id)
      texts.push(text)
    }
    return id
  }
  return { ids, texts, idOf }
}

/**
 * A list of integers in a typed array grown by doubling: what it outgrows lies outside the heap, where a JavaScript
 * array's would be left among the old generation's large objects until its next full collection (about 40 MB of
 * garbage for the shipped labels' lists).
 */
const integers = () => {
  let values = new Int32Array(4096)
  let length = 0
  return {
    push: (value: number) => {
      if (length === values.length) {
        const grown = new Int32Array(values.length * 2)
        grown.set(values)
        values = grown
      }
      values[length++] = value
    },
    get length() {
      return length
    },
    done: () => values.slice(0, length)
  }
}

/**
 * The labels indexed by each of their content stems (`stems`), each kept packed (see the file's head); read in one
 * pass, so that labels decoded as they are read (the files' lines, LexiconFiles.ts) die young.
 */
export const labelIndex = (labels: Iterable<LabelMatch>): LabelIndex => {
  const codes = stringTable()
  const languages = stringTable()
  const stemTable = stringTable()
  const codeOf = integers()
  const languageOf = integers()
  const okpd2Of = integers()
  // Per label, a range of numbers in one array: the label's `i` are `values[start[i]]` to `values[start[i + 1] - 1]`.
  const stemList = { start: integers(), values: integers() }
  const otherList = { start: integers(), values: integers() }
  stemList.start.push(0)
  otherList.start.push(0)
  for (const label of labels) {
    codeOf.push(codes.idOf(label.code))
    languageOf.push(languages.idOf(label.language))
    okpd2Of.push(label.scheme === "okpd2" ? 1 : 0)
    for (const stem of label.stems) stemList.values.push(stemTable.idOf(stem))
    stemList.start.push(stemList.values.length)
    for (const stem of label.others ?? []) otherList.values.push(stemTable.idOf(stem))
    otherList.start.push(otherList.values.length)
  }
  const packed = (list: typeof stemList) => ({ start: list.start.done(), values: list.values.done() })
  const code = codeOf.done()
  const language = languageOf.done()
  const okpd2 = Uint8Array.from(okpd2Of.done())
  const stems = packed(stemList)
  const others = packed(otherList)
  const count = code.length
  // The labels of each stem, in the labels' order: counted, then placed (a label's stems are distinct, indexLabels).
  const postingStart = new Int32Array(stemTable.texts.length + 1)
  for (const stem of stems.values) postingStart[stem + 1] = (postingStart[stem + 1] ?? 0) + 1
  for (let s = 0; s < stemTable.texts.length; s++)
    postingStart[s + 1] = (postingStart[s + 1] ?? 0) + (postingStart[s] ?? 0)
  const postings = new Int32Array(stems.values.length)
  const next = postingStart.slice(0, stemTable.texts.length)
  for (let i = 0; i < count; i++)
    for (let k = stems.start[i] ?? 0; k < (stems.start[i + 1] ?? 0); k++) {
      const stem = stems.values[k] ?? 0
      postings[next[stem] ?? 0] = i
      next[stem] = (next[stem] ?? 0) + 1
    }
  const textsOf = (range: { readonly start: Int32Array; readonly values: Int32Array }, i: number) =>
    Array.from(range.values.subarray(range.start[i], range.start[i + 1]), (id) => stemTable.texts[id] ?? "")
  const labelAt = (i: number): LabelMatch => {
    const other = textsOf(others, i)
    return {
      code: codes.texts[code[i] ?? 0] ?? "",
      language: languages.texts[language[i] ?? 0] ?? "",
      stems: textsOf(stems, i),
      ...(other.length > 0 ? { others: other } : {}),
      ...(okpd2[i] === 1 ? { scheme: "okpd2" as const } : {})
    }
  }
  const memo = boundedMemo<ReadonlyArray<LabelMatch>>(stemsKept)
  return {
    get: (text) => {
      const stem = stemTable.ids.get(text)
      const from = stem === undefined ? 0 : (postingStart[stem] ?? 0)
      const to = stem === undefined ? 0 : (postingStart[stem + 1] ?? 0)
      if (from === to) return undefined
      return memo(text, () => Array.from(postings.subarray(from, to), labelAt))
    }
  }
}
