// Spelling: the words of the tenders a misspelt query word may be corrected to (the vocabulary), which of a query's
// words may be misspelt, and the plan of a query read with its corrections. The corrections themselves are looked up
// by the store (similar words of its vocabulary).

import type { Clause, QueryPlan, SpellingQuestion, TenderRecord } from "@tenders/core"
import { asWritten, scriptOf } from "./Normalize.ts"
import { tenderWords } from "./TenderWords.ts"

/** Words shorter than this are never corrected (too many near neighbours). */
const minCorrectable = 4

/** Whether a word may be corrected, or be a correction: long enough, with a letter. */
const correctableWord = (text: string) => [...text].length >= minCorrectable && /\p{L}/u.test(text)

/** A tender's vocabulary words: those of its text fields a word may be corrected to, as written, no stop word. */
export const documentWords = (record: TenderRecord, stopWords: ReadonlySet<string>): ReadonlyArray<string> => {
  const fields = tenderWords(record)
  const words = new Set<string>()
  for (const field of [fields.title, fields.lots, fields.parties]) {
    for (const word of field) {
      if (!correctableWord(word.text) || stopWords.has(word.text)) continue
      words.add(asWritten(word))
    }
  }
  return [...words]
}

/**
 * The clauses of a plan that may be misspelt: those only their own forms (and their transliteration) find; a word that
 * names a concept, a place or a code is known.
 */
export const correctable = (plan: QueryPlan): ReadonlyArray<SpellingQuestion> =>
  plan.clauses.flatMap((clause) =>
    correctableWord(clause.text) && clause.alternatives.every((a) => a.kind === "word" || a.term.startsWith("t:"))
      ? [
          {
            text: clause.text,
            lookup: asWritten({ text: clause.text, script: scriptOf(clause.text) }),
            forms: clause.alternatives.filter((a) => a.kind === "word").map((a) => a.term)
          }
        ]
      : []
  )

/**
 * The query planned again with the words read as corrected, so that a phrase a misspelt word belongs to is found
 * ("серверного оборудавания" is the concept "servers" once read as "оборудования"); the clauses of the corrected words
 * match as corrections. A correction is a word of the vocabulary (`documentWords`: one word, of letters, no stop
 * word), so the clauses of the two plans line up one for one; were they not to, the plan is left as typed.
 */
export const corrected = (
  plan: QueryPlan,
  corrections: ReadonlyMap<string, string>,
  queryPlan: (q: string) => QueryPlan
): QueryPlan => {
  const applied = plan.clauses.flatMap((clause) => {
    const read = corrections.get(clause.text)
    return read === undefined ? [] : [[clause.text, read] as const]
  })
  if (applied.length === 0) return plan
  const again = queryPlan(plan.clauses.map((clause) => corrections.get(clause.text) ?? clause.text).join(" "))
  if (again.clauses.length !== plan.clauses.length) return plan
  const clauses = again.clauses.map((clause, i): Clause => {
    const typed = plan.clauses[i]?.text ?? clause.text
    return corrections.has(typed)
      ? {
          text: typed,
          weight: clause.weight,
          ...(clause.generic === true ? { generic: true } : {}),
          alternatives: clause.alternatives.map((a) => ({ term: a.term, kind: "correction" as const }))
        }
      : { ...clause, text: typed }
  })
  return { clauses, also: again.also, corrections: [...plan.corrections, ...applied] }
}
