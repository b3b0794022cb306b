// A query's plan: a clause a code or word, each with the terms that find it (DocumentTerms.ts holds the same terms of
// a tender) and how much a match by each counts. A word is widened to the concepts and places its phrases name and the
// codes whose labels it and the other words make up, so a query finds tenders in every language and classification;
// the plan's hint names those concepts and codes.

import {
  type Alternative,
  type Clause,
  cpvTerm,
  cpvTermPrefix,
  kindWeight,
  type MatchKind,
  namedCodeTerm,
  noText,
  normalizeCpvPrefix,
  type QueryPlan
} from "@tenders/core"
import { codeAlternatives, codePattern } from "./CodeTerms.ts"
import type { CompoundSplitter } from "./Compounds.ts"
import type { LabelMatch } from "./Labels.ts"
import type { Lexicon } from "./Lexicon.ts"
import { foldLatin, normalizeText, wordsOf } from "./Normalize.ts"
import { okpd2Term } from "./Okpd2.ts"
import { type FoundPhrase, findPhrases } from "./Phrases.ts"
import { formIn, formsOf, latinLanguages, latinStems } from "./Stemming.ts"
import { translitTerms } from "./WordTerms.ts"

/** How much a generic procurement word ("supply", "поставка") counts, against 1 for any other. */
const genericWeight = 0.3

/** The most words of a query that are read. */
const maxWords = 32

/** The most names a query's hint gives (concepts' names in other languages, and codes). */
const maxAlso = 8

/** The most codes a query's words name (`labelCodes`), and of them the most its hint shows. */
const maxLabelCodes = 8
const maxShownCodes = 3

/** A clause as the plan is made: its weight and alternatives grow as the phrases and codes of its word are found. */
interface OpenClause {
  readonly text: string
  weight: number
  generic: boolean
  readonly alternatives: Map<string, MatchKind>
}

/** A code a query's words name by its label: the stems matched, its label's every stem, and its terms. */
interface LabelCode {
  readonly stems: ReadonlyArray<string>
  readonly words: ReadonlySet<string>
  readonly terms: ReadonlyArray<string>
}

/**
 * The codes a query's words name, keyed by the code as the hint shows it ("CPV 3360", "OKPD2 21.20"), most stems
 * matched first: those of the labels (and of the sources' labels) whose every content stem is a form of a word of
 * the query in the label's language (`inLabelLanguage`), each found by a form of the query's `specific` words. The
 * words a code answers are its label's every stem ("system" in "medicinal products for the nervous system"), and its
 * terms find its tenders (an OKPD2 code's levels, and the CPV branches the crosswalk links to it).
 */
const labelCodes = (
  lexicon: Lexicon,
  labelsOf: (form: string) => ReadonlyArray<LabelMatch>,
  specific: ReadonlySet<string>,
  inLabelLanguage: (stem: string, language: string) => boolean
): ReadonlyArray<readonly [shown: string, LabelCode]> => {
  const found = new Map<string, LabelCode>()
  for (const form of specific) {
    for (const label of labelsOf(form)) {
      if (!label.stems.every((stem) => inLabelLanguage(stem, label.language))) continue
      const code = label.scheme === "okpd2" ? label.code : normalizeCpvPrefix(label.code)
      if (code.replaceAll(".", "").length < 3) continue
      const shown = label.scheme === "okpd2" ? `OKPD2 ${code}` : `CPV ${code}`
      const terms =
        label.scheme === "okpd2"
          ? [okpd2Term(code), ...(lexicon.cpvOfOkpd2.get(code) ?? []).map(cpvTerm)]
          : [cpvTerm(code)]
      const known = found.get(shown)
      if (known === undefined || known.stems.length < label.stems.length) {
        found.set(shown, { stems: label.stems, words: new Set([...label.stems, ...(label.others ?? [])]), terms })
      }
    }
  }
  return [...found]
    .toSorted((a, b) => b[1].stems.length - a[1].stems.length || a[0].localeCompare(b[0]))
    .slice(0, maxLabelCodes)
}

/** The plan of a query by the lexicon (`sourceLabels`: the labels sources publish beside their codes, by stem). */
export const queryPlanOf =
  (
    lexicon: Lexicon,
    stopWords: ReadonlySet<string>,
    compoundParts: CompoundSplitter,
    sourceLabels: () => ReadonlyMap<string, ReadonlyArray<LabelMatch>>
  ) =>
  (q: string): QueryPlan => {
    const normalized = normalizeText(q)
    const also: Array<string> = []
    // Codes first: an OKPD2 code with dots, or a CPV code or prefix (with or without its check digit).
    const clauses = [...normalized.matchAll(codePattern)].map((match): OpenClause => {
      const code = match[1] ?? ""
      return { text: code, weight: 1, generic: false, alternatives: codeAlternatives(lexicon, code) }
    })
    const words = wordsOf(normalized.replace(codePattern, " "))
      .filter((word) => !stopWords.has(word.text))
      .slice(0, maxWords)
    // A form that is a stop word of some language is not searched (the Danish stem of "laser" is the Spanish "las"),
    // unless it is the word as typed.
    const stems = words.map((word) => latinStems(word, latinLanguages))
    const positions = words.map(
      (word, i) =>
        new Set(
          [...formsOf(word, latinLanguages, stems[i]), ...compoundParts(word, latinLanguages)].filter(
            (form) => !stopWords.has(form) || form === foldLatin(word.text)
          )
        )
    )
    const wordClauses = words.map((word, i): OpenClause => {
      const alternatives = new Map<string, MatchKind>()
      for (const form of positions[i] ?? []) alternatives.set(form, "word")
      for (const t of translitTerms(word)) if (!alternatives.has(t)) alternatives.set(t, "concept")
      return { text: word.text, weight: 1, generic: false, alternatives }
    })
    // A concept or place found: its words' clauses find it too (a generic one counts less), and the hint names it in
    // the languages not typed.
    const widen = (found: ReadonlyArray<FoundPhrase>) => {
      for (const { concept, from, to } of found) {
        for (let i = from; i <= to; i++) {
          const clause = wordClauses[i]
          if (clause === undefined) continue
          if (!clause.alternatives.has(concept)) clause.alternatives.set(concept, "concept")
          if (lexicon.generic.has(concept)) {
            clause.weight = Math.min(clause.weight, genericWeight)
            clause.generic = true
          }
        }
        const names = lexicon.names.get(concept)
        const typed = new Set(words.slice(from, to + 1).map((w) => w.text))
        for (const language of ["en", "ru", "hy"]) {
          const name = names?.[language]?.[0]
          if (name !== undefined && !typed.has(normalizeText(name)) && !also.includes(name)) also.push(name)
        }
      }
    }
    widen(findPhrases(lexicon.concepts, positions, stems))
    const places = findPhrases(lexicon.places, positions)
    widen(places)
    // CPV labels whose every content stem is among the query's forms name a code the query is about; a place's
    // words name none ("Kazan" is not the Hungarian for boiler), nor do generic words alone (the Russian "поставка",
    // supply, is the Bulgarian for a stand).
    const placeWords = new Set(
      places.flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, k) => from + k))
    )
    // A label's stem is among the query's forms when a word (not a place's) has it as a form in the label's language.
    const inLabelLanguage = (stem: string, language: string) =>
      positions.some((forms, i) => !placeWords.has(i) && forms.has(stem) && formIn(stems[i], stem, language))
    const specificForms = new Set(
      positions.flatMap((forms, i) => (placeWords.has(i) || (wordClauses[i]?.weight ?? 1) < 1 ? [] : [...forms]))
    )
    const labelsOf = (form: string) => [...(lexicon.labels.get(form) ?? []), ...(sourceLabels().get(form) ?? [])]
    const codes = labelCodes(lexicon, labelsOf, specificForms, inLabelLanguage)
    for (const [, { words, terms }] of codes) {
      positions.forEach((forms, i) => {
        if ([...forms].some((form) => words.has(form)))
          for (const term of terms) {
            wordClauses[i]?.alternatives.set(term, "code")
            // A notice filed under no code but naming this one (labelNamedPrefixes) is found too.
            if (term.startsWith(cpvTermPrefix)) wordClauses[i]?.alternatives.set(namedCodeTerm(term), "named")
          }
      })
    }
    // The hint names up to three codes, after the concepts' names but never crowded out by them.
    const shownCodes = codes.slice(0, maxShownCodes).map(([shown]) => shown)
    const hinted = [...also.slice(0, maxAlso - shownCodes.length), ...shownCodes]
    const all = [...clauses, ...wordClauses]
    if (all.length === 0) return noText
    const plan: ReadonlyArray<Clause> = all.map((clause) => ({
      text: clause.text,
      weight: clause.weight,
      ...(clause.generic ? { generic: true } : {}),
      alternatives: [...clause.alternatives]
        .map(([term, kind]): Alternative => ({ term, kind }))
        .toSorted((a, b) => kindWeight[b.kind] - kindWeight[a.kind])
    }))
    return { clauses: plan, also: hinted, corrections: [] }
  }
