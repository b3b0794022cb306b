// The classification labels by content stem, as the lexicon keeps them: packed into typed arrays over the distinct
// codes, languages and stems (each kind's characters in one string), each label made again as a `LabelMatch` when a
// stem asks for it. The shipped CPV labels alone are 230,552 labels of 506,251 stems in 134,350 distinct ones: kept as
// objects, their arrays, a string per stem written and the lists of a map by stem, they held about 96 MB of heap;
// packed, about 15 MB, and their strings packed too, 5 MB less.

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

/** The strings of one kind, each once, by number, while the index is made. */
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
  return { texts, idOf }
}

/** FNV-1a over a string's UTF-16 code units. */
const hashOf = (text: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** Strings by number, and their numbers, kept once made. */
export interface PackedStrings {
  readonly size: number
  readonly idOf: (text: string) => number | undefined
  readonly textOf: (id: number) => string
}

/**
 * `texts` packed: their characters in one string, where each is a range (`start`), and an open-addressing hash table
 * of their numbers. The shipped labels' 134,350 distinct stems kept as strings in a map took about 20 MB of heap (a
 * string's header for a few characters, two bytes a character once one is not Latin-1, the map's table); packed they
 * take about 5.
 */
export const packedStrings = (texts: ReadonlyArray<string>): PackedStrings => {
  const characters = texts.join("")
  const start = new Int32Array(texts.length + 1)
  for (let id = 0; id < texts.length; id++) start[id + 1] = (start[id] ?? 0) + (texts[id]?.length ?? 0)
  let slots = 16
  while (slots < texts.length * 2) slots *= 2
  const mask = slots - 1
  const table = new Int32Array(slots).fill(-1)
  const sameAs = (id: number, text: string) => {
    const from = start[id] ?? 0
    if ((start[id + 1] ?? 0) - from !== text.length) return false
    for (let i = 0; i < text.length; i++) if (characters.charCodeAt(from + i) !== text.charCodeAt(i)) return false
    return true
  }
  /** The slot of `text`: where its number is, or the empty slot where it would be. */
  const slotOf = (text: string) => {
    let slot = hashOf(text) & mask
    for (let id = table[slot] ?? -1; id !== -1 && !sameAs(id, text); id = table[slot] ?? -1) slot = (slot + 1) & mask
    return slot
  }
  for (let id = 0; id < texts.length; id++) table[slotOf(texts[id] ?? "")] = id
  return {
    size: texts.length,
    idOf: (text) => {
      const id = table[slotOf(text)] ?? -1
      return id === -1 ? undefined : id
    },
    textOf: (id) => characters.slice(start[id] ?? 0, start[id + 1] ?? 0)
  }
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
  const codeTable = stringTable()
  const languageTable = stringTable()
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
    codeOf.push(codeTable.idOf(label.code))
    languageOf.push(languageTable.idOf(label.language))
    okpd2Of.push(label.scheme === "okpd2" ? 1 : 0)
    for (const stem of label.stems) stemList.values.push(stemTable.idOf(stem))
    stemList.start.push(stemList.values.length)
    for (const stem of label.others ?? []) otherList.values.push(stemTable.idOf(stem))
    otherList.start.push(otherList.values.length)
  }
  const packed = (list: typeof stemList) => ({ start: list.start.done(), values: list.values.done() })
  const code = codeOf.done()
  // A label's language as a byte while the languages are few (26 with the packs): 0.7 MB less than a number each.
  const language = languageTable.texts.length <= 256 ? Uint8Array.from(languageOf.done()) : languageOf.done()
  const okpd2 = Uint8Array.from(okpd2Of.done())
  const stems = packed(stemList)
  const others = packed(otherList)
  const count = code.length
  const codes = packedStrings(codeTable.texts)
  const languages = packedStrings(languageTable.texts)
  const stemTexts = packedStrings(stemTable.texts)
  // The labels of each stem, in the labels' order: counted, then placed (a label's stems are distinct, indexLabels).
  const stemCount = stemTexts.size
  const postingStart = new Int32Array(stemCount + 1)
  for (const stem of stems.values) postingStart[stem + 1] = (postingStart[stem + 1] ?? 0) + 1
  for (let s = 0; s < stemCount; s++) postingStart[s + 1] = (postingStart[s + 1] ?? 0) + (postingStart[s] ?? 0)
  const postings = new Int32Array(stems.values.length)
  const next = postingStart.slice(0, stemCount)
  for (let i = 0; i < count; i++)
    for (let k = stems.start[i] ?? 0; k < (stems.start[i + 1] ?? 0); k++) {
      const stem = stems.values[k] ?? 0
      postings[next[stem] ?? 0] = i
      next[stem] = (next[stem] ?? 0) + 1
    }
  const textsOf = (range: { readonly start: Int32Array; readonly values: Int32Array }, i: number) =>
    Array.from(range.values.subarray(range.start[i], range.start[i + 1]), (id) => stemTexts.textOf(id))
  const labelAt = (i: number): LabelMatch => {
    const other = textsOf(others, i)
    return {
      code: codes.textOf(code[i] ?? 0),
      language: languages.textOf(language[i] ?? 0),
      stems: textsOf(stems, i),
      ...(other.length > 0 ? { others: other } : {}),
      ...(okpd2[i] === 1 ? { scheme: "okpd2" as const } : {})
    }
  }
  const memo = boundedMemo<ReadonlyArray<LabelMatch>>(stemsKept)
  return {
    get: (text) => {
      const stem = stemTexts.idOf(text)
      const from = stem === undefined ? 0 : (postingStart[stem] ?? 0)
      const to = stem === undefined ? 0 : (postingStart[stem + 1] ?? 0)
      if (from === to) return undefined
      return memo(text, () => Array.from(postings.subarray(from, to), labelAt))
    }
  }
}
