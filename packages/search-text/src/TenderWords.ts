// The words of a tender's text fields, read once for both its terms and its vocabulary words (an ingest asks for both
// of the same record, one after the other).

import { type Field, type TenderRecord, tenderText } from "@tenders/core"
import { type Word, wordsOf } from "./Normalize.ts"

/** The words of each text field of a tender. */
export type TenderWords = Readonly<Record<Exclude<Field, "codes">, ReadonlyArray<Word>>>

const read = new WeakMap<TenderRecord, TenderWords>()

/** The words of a tender's text fields (`tenderText`). */
export const tenderWords = (record: TenderRecord): TenderWords => {
  let words = read.get(record)
  if (words === undefined) {
    const text = tenderText(record)
    words = { title: wordsOf(text.title), lots: wordsOf(text.lots), parties: wordsOf(text.parties) }
    read.set(record, words)
  }
  return words
}
