// A tender's terms, each with the most important field it is found in: its words' forms and transliteration, the
// concepts and places its phrases name (and the places those lie in, the concepts those are kinds of), its codes and
// the concepts of their labels, and the codes its subject names. The query side (QueryPlan.ts) asks for the same
// terms, so what a tender holds here is what a query can find it by.

import {
  cpvTerm,
  cpvTermPrefix,
  type DocumentTerms,
  type Field,
  namedCodeTerm,
  normalizeCpvPrefix,
  rankedFields,
  tenderCpvPrefixes,
  type TenderRecord
} from "@tenders/core"
import { codeTerms, labelNamedPrefixes, namedPrefixes } from "./CodeTerms.ts"
import type { Lexicon } from "./Lexicon.ts"
import { normalizeText } from "./Normalize.ts"
import { countryLanguages, noticeLanguages, scriptLanguages } from "./NoticeLanguages.ts"
import { findPhrases } from "./Phrases.ts"
import type { StemmedLanguage } from "./Stemming.ts"
import { tenderWords } from "./TenderWords.ts"
import type { TenderWordTerms } from "./WordTerms.ts"

/** A tender's terms by the lexicon, its words' terms read by `wordTerms` (`wordTermsOf`). */
export const documentTermsOf =
  (lexicon: Lexicon, wordTerms: TenderWordTerms) =>
  (record: TenderRecord): DocumentTerms => {
    const terms = new Map<string, Field>()
    const add = (term: string, field: Field) => {
      if (!terms.has(term)) terms.set(term, field)
    }
    // A place it names, and (after every field, as low as its parties) the places that one lies in: a query for a
    // region finds the notices of its towns, a query for a town not the whole region's.
    const containing: Array<string> = []
    const addPlace = (concept: string, field: Field) => {
      add(concept, field)
      containing.push(...(lexicon.within.get(concept) ?? []))
    }
    const latin: ReadonlyArray<StemmedLanguage> = ["en", ...(countryLanguages[record.country ?? ""] ?? [])]
    const languages = latin.join(" ")
    const fields = tenderWords(record)
    const subject = new Set<string>()
    const subjectForms = new Set<string>()
    // The languages of its labels that name a notice's codes: English (TED titles carry the English CPV label), its
    // country's, and those its script says (Armenian; Russian and Greek for a notice of no country of that script).
    const labelLanguages = new Set<string>(["en", ...(noticeLanguages[record.country ?? ""] ?? [])])
    for (const field of rankedFields) {
      if (field === "codes") continue
      const words = fields[field]
      const analysed = words.map((word) => wordTerms(word, latin, languages))
      const positions = analysed.map((word) => word.forms)
      const stems = analysed.map((word) => word.stems)
      for (const forms of positions) for (const form of forms) add(form, field)
      for (const word of analysed) for (const t of word.translit) add(t, field)
      // The words of a generic concept name no code ("поставка", supply, is the Bulgarian for a stand).
      const generic = new Set<number>()
      for (const { concept, from, to } of findPhrases(lexicon.concepts, positions, stems)) {
        add(concept, field)
        if (field !== "parties") subject.add(concept)
        if (lexicon.generic.has(concept)) for (let i = from; i <= to; i++) generic.add(i)
      }
      if (field !== "parties")
        positions.forEach((forms, i) => {
          if (generic.has(i)) return
          for (const form of forms) subjectForms.add(form)
          const [first, ...others] = scriptLanguages[words[i]?.script ?? "other"] ?? []
          if (first !== undefined && !labelLanguages.has(first) && !others.some((other) => labelLanguages.has(other)))
            labelLanguages.add(first)
        })
      for (const { concept } of findPhrases(lexicon.places, positions)) addPlace(concept, field)
    }
    // TED's region is a NUTS code: the places whose territory holds it.
    const region = record.region ?? ""
    if (/^[A-Z]{2}[0-9A-Z]{0,3}$/u.test(region)) {
      for (let n = 2; n <= region.length; n++)
        for (const place of lexicon.nuts.get(region.slice(0, n)) ?? []) addPlace(place, "parties")
    }
    for (const place of containing) add(place, "parties")
    add(normalizeText(record.nativeId), "codes")
    const codes = codeTerms(lexicon, tenderCpvPrefixes(record), record.okpd2Codes)
    for (const term of codes) add(term, "codes")
    // The concepts of its codes' labels: every one of its own (most specific) codes' labels, and of a broader code's
    // label its one concept only: a label naming several ("Construction works for pipelines, communication and power
    // lines, for highways, roads, airfields and railways") lists what the codes under it may be, not what each is.
    const cpvPrefixes = codes
      .filter((term) => term.startsWith(cpvTermPrefix))
      .map((term) => term.slice(cpvTermPrefix.length))
    for (const prefix of cpvPrefixes) {
      const concepts = lexicon.labelConcepts.ofCpv.get(prefix) ?? []
      const broader = cpvPrefixes.some(
        (other) =>
          other.length > prefix.length && other.startsWith(prefix) && normalizeCpvPrefix(other).length > prefix.length
      )
      if (!broader || concepts.length === 1) for (const concept of concepts) add(concept, "codes")
    }
    for (const code of record.okpd2Codes)
      for (const concept of lexicon.labelConcepts.ofOkpd2(code)) add(concept, "codes")
    // The concepts each found one is a kind of (laptops: computers), as low as its codes count, or as its parties for
    // a party's (a maternity hospital is a hospital): a query for the class finds the notices naming only the kind.
    for (const [term, field] of Array.from(terms))
      for (const concept of lexicon.broader.get(term) ?? []) {
        const kindOf = field === "parties" ? "parties" : "codes"
        const before = terms.get(concept)
        if (before === undefined || rankedFields.indexOf(kindOf) < rankedFields.indexOf(before))
          terms.set(concept, kindOf)
      }
    // The codes its subject names: by the glossary's concepts, and, for a notice filed under no code, by the words
    // of the labels too (a classified notice has its codes' own).
    const unclassified = codes.length === 0
    for (const prefix of [
      ...namedPrefixes(lexicon, subject),
      ...(unclassified ? labelNamedPrefixes(lexicon, subjectForms, labelLanguages) : [])
    ]) {
      const term = cpvTerm(prefix)
      if (!terms.has(term)) add(namedCodeTerm(term), "codes")
    }
    return terms
  }
