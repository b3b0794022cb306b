import {
  type Alternative,
  type Clause,
  cpvPrefixesOf,
  cpvTerm,
  cpvTermPrefix,
  type DocumentTerms,
  type Field,
  kindWeight,
  type MatchKind,
  namedCodeTerm,
  noText,
  normalizeCpvPrefix,
  type QueryPlan,
  rankedFields,
  type SpellingQuestion,
  tenderCpvPrefixes,
  type TenderRecord,
  tenderText
} from "@tenders/core"
import { type LabelMatch, labelScope } from "./Labels.ts"
import {
  compoundingLanguages,
  cpvSignificant,
  type Lexicon,
  minCompoundPart,
  type Phrase,
  type PhraseIndex
} from "./Lexicon.ts"
import { foldLatin, normalizeText, scriptOf, wordsOf, type Word } from "./Normalize.ts"
import { countryLanguages, noticeLanguages, scriptLanguages } from "./NoticeLanguages.ts"
import { boundedMemo } from "./Memo.ts"
import { formIn, formsOf, latinStems, latinLanguages, type StemmedLanguage, stemmerFor, stemmerOf } from "./Stemming.ts"
import { phonetic, transliterate } from "./Translit.ts"

/** The term of an OKPD2 code or level (dotted, as OKPD2 writes it). */
export const okpd2Term = (code: string): string => `okpd:${code}`

/**
 * Every level of an OKPD2 code, broadest first: its prefixes (`42.11.20.000` -> 42, 42.1, 42.11, 42.11.2, 42.11.20,
 * 42.11.20.0, ...), and for a subcategory its category, as OKPD2 nests them (`21.20.10.232`, analgesics, is in
 * `21.20.10.230`, medicines for the nervous system).
 */
export const okpd2Levels = (code: string): ReadonlyArray<string> => {
  const levels: Array<string> = []
  for (let n = 2; n <= code.length; n++) {
    const prefix = code.slice(0, n)
    if (/\d$/u.test(prefix)) levels.push(prefix)
  }
  if (/^\d\d\.\d\d\.\d\d\.\d\d[1-9]$/u.test(code)) levels.splice(levels.length - 1, 0, `${code.slice(0, 11)}0`)
  return levels
}

const translitTerm = (latin: string): string => `t:${phonetic(latin)}`

/** The transliteration terms of a word: of the word and of its stem (so Казани and Казань meet at kazan). */
const translitTerms = (word: Word): ReadonlyArray<string> => {
  if (word.script === "latin") {
    const folded = formsOf(word, [])[0] ?? word.text
    return [...new Set([translitTerm(folded), translitTerm(stemmerOf("en")(word.text))])]
  }
  const language = stemmerFor(word.script)
  if (language === undefined) return []
  const stem = stemmerOf(language)(word.text)
  return [...new Set([translitTerm(transliterate(word.text)), translitTerm(transliterate(stem))])]
}

/**
 * The concepts whose phrases occur in a sequence of word forms, with the span of words each covers. A form that is a
 * word's stem in some languages only (`stems`, by position: `latinStems`) stands for the word in a phrase of one of
 * them: the Hungarian stem of "card", "car", is no English "car".
 */
const findPhrases = (
  index: PhraseIndex,
  positions: ReadonlyArray<ReadonlySet<string>>,
  stems: ReadonlyArray<ReadonlyMap<string, ReadonlyArray<string>>> = []
) => {
  const found: Array<{ readonly concept: string; readonly from: number; readonly to: number }> = []
  const inLanguage = (phrase: Phrase, at: number, stem: string) =>
    phrase.languages === undefined || phrase.languages.some((language) => formIn(stems[at], stem, language))
  positions.forEach((forms, i) => {
    for (const form of forms) {
      for (const phrase of index.get(form) ?? []) {
        if (phrase.stems.every((stem, k) => positions[i + k]?.has(stem) === true && inLanguage(phrase, i + k, stem))) {
          found.push({ concept: phrase.concept, from: i, to: i + phrase.stems.length - 1 })
        }
      }
    }
  })
  return found
}

const codePattern = /(?<![\p{L}\p{N}.])(\d{2}(?:\.\d{1,3}){1,3}|\d{2,8}(?:-\d)?)(?![\p{L}\p{N}]|\.\d)/gu

/** The most names a query's hint gives (concepts' names in other languages, and codes). */
const maxAlso = 8

/** The analysis: a tender's terms and a query's plan, from one lexicon. */
export const makeAnalyzer = (
  lexicon: Lexicon,
  stopWords: ReadonlySet<string>,
  // Labels sources publish beside their codes (`sourceLabelIndex`), by content stem: the query side's only.
  sourceLabels: () => ReadonlyMap<string, ReadonlyArray<LabelMatch>> = () => new Map()
) => {
  // Compounds (German, Dutch, the Nordic languages): a long word that is two known words of one language (with a
  // linking -s-, -es-, -en-, -n- or -e- between them: Abwasser|entsorgung, Straßen|sanierung), or that ends in a
  // glossary word, also has the forms of those parts, so the concepts and the split forms of its parts are found
  // ("road", "repair"; "Entsorgung von Abwasser"). Known words are the glossary's and the CPV labels' of the language:
  // a split is never guessed from letters alone, nor made of two languages' words.
  const glossaryWord = (form: string) => (lexicon.concepts.get(form) ?? []).some((phrase) => phrase.stems.length === 1)
  const knownForms = (text: string, language: StemmedLanguage) =>
    formsOf({ text, script: "latin" }, [language]).filter(
      (form) =>
        form.length >= minPart && (lexicon.compoundParts.get(language)?.has(form) === true || glossaryWord(form))
    )
  const compoundParts = (word: Word, latin: ReadonlyArray<StemmedLanguage>, depth = 0): ReadonlyArray<string> => {
    const languages = latin.filter((language) => compounding.has(language))
    if (word.script !== "latin" || languages.length === 0 || [...word.text].length < minCompound) return []
    const parts = new Set<string>()
    for (let k = minPart; k <= word.text.length - minPart; k++) {
      const tail = word.text.slice(k)
      const heads = [...new Set([word.text.slice(0, k), word.text.slice(0, k).replace(/(?:en|es|s|n|e)$/u, "")])]
      // The word before may be a compound itself (Abwasserentsorgungs|anlage: Abwasser|entsorgung), and so may the
      // known word at the end; the word before is split only once the end is known.
      let headParts: ReadonlyArray<string> | undefined
      let split = false
      for (const language of languages) {
        const tailForms = knownForms(tail, language)
        if (tailForms.length === 0) continue
        const headForms = heads.flatMap((head) => knownForms(head, language))
        if (headForms.length === 0 && !tailForms.some(glossaryWord)) {
          headParts ??=
            depth < 2 ? heads.flatMap((head) => compoundParts({ text: head, script: "latin" }, latin, depth + 1)) : []
          if (headParts.length === 0) continue
        }
        for (const form of [...tailForms, ...headForms, ...(headParts ?? [])]) parts.add(form)
        split = true
      }
      if (!split) continue
      if (depth < 2)
        for (const form of compoundParts({ text: tail, script: "latin" }, latin, depth + 1)) parts.add(form)
      break
    }
    return [...parts]
  }

  // A word's forms and transliteration terms, by the Latin languages it is stemmed in: notices repeat their words,
  // and this is most of the analysis's time on ingest.
  const wordTerms = boundedMemo<{
    readonly forms: ReadonlySet<string>
    readonly stems: ReadonlyMap<string, ReadonlyArray<string>>
    readonly translit: ReadonlyArray<string>
  }>(wordCacheLimit)
  const termsOfWord = (word: Word, latin: ReadonlyArray<StemmedLanguage>, languages: string) =>
    wordTerms(`${languages}\u0000${word.text}`, () => {
      const stems = latinStems(word, latin)
      return {
        forms: new Set([...formsOf(word, latin, stems), ...compoundParts(word, latin)]),
        stems,
        translit: word.script === "latin" ? [] : translitTerms(word)
      }
    })

  // The concepts a label names (read up to its exception, without stop words) by one language's glossary phrases
  // (another language's homonym would mislead: the Finnish "tie", road, is the English "ties"), and whether they
  // cover its every word.
  const conceptsOfLabel = (language: "en" | "ru", label: string) => {
    const words = wordsOf(labelScope(language, label)).filter((word) => !stopWords.has(word.text))
    const found = findPhrases(
      language === "en" ? lexicon.englishConcepts : lexicon.russianConcepts,
      words.map((word) => new Set(formsOf(word, language === "en" ? ["en"] : [])))
    )
    return {
      concepts: [...new Set(found.map(({ concept }) => concept).filter((c) => !lexicon.generic.has(c)))],
      covered: words.every((_, i) => found.some(({ from, to }) => from <= i && i <= to))
    }
  }

  // From the CPV codes' English labels, read once:
  // - `labelConcepts`: the codes whose label is made of glossary concepts only, apart from stop words and generic
  //   words ("Repair of roofs": repair, roof; "Snow-clearing services": snow removal), by their first concept: a
  //   tender whose title or lots have every concept of such a label names its code, whatever it is classified under;
  // - `codeConcepts`: the concepts a code's label names (groups and finer: a division's label lists several fields),
  //   by the code's significant prefix: a tender filed under the code has them too, as low as its codes count, so a
  //   query for the concept in any language finds a notice that names only its product ("Pharmaceutical products":
  //   medicines).
  const labelConcepts = new Map<string, Array<{ readonly code: string; readonly concepts: ReadonlyArray<string> }>>()
  const codeConcepts = new Map<string, ReadonlyArray<string>>()
  for (const { code, label } of lexicon.cpvEnglish) {
    const { concepts, covered } = conceptsOfLabel("en", label)
    const prefix = cpvSignificant(code)
    if (prefix.length >= 3 && concepts.length > 0) codeConcepts.set(prefix, concepts)
    const sorted = concepts.toSorted()
    const first = sorted[0]
    if (!covered || first === undefined) continue
    const list = labelConcepts.get(first)
    if (list === undefined) labelConcepts.set(first, [{ code, concepts: sorted }])
    else list.push({ code, concepts: sorted })
  }
  // The CPV prefixes (of three digits and more) of the codes a subject names.
  const namedPrefixes = (concepts: ReadonlySet<string>): ReadonlySet<string> => {
    const prefixes = new Set<string>()
    for (const concept of concepts)
      for (const label of labelConcepts.get(concept) ?? [])
        if (label.concepts.every((c) => concepts.has(c)))
          for (const prefix of cpvPrefixesOf(cpvSignificant(label.code))) if (prefix.length >= 3) prefixes.add(prefix)
    return prefixes
  }
  // The CPV prefixes an OKPD2 code is linked to by the crosswalk at its most specific linked level.
  const crosswalkOf = (code: string): ReadonlyArray<string> =>
    okpd2Levels(code)
      .toReversed()
      .map((level) => lexicon.okpd2ToCpv.get(level) ?? [])
      .find((links) => links.length > 0) ?? []

  // The concepts an OKPD2 code's Russian label names, as `codeConcepts` for CPV: a Russian notice filed under the
  // code has them too, as low as its codes count ("Устройства периферийные с двумя или более функциями: печать
  // данных, копирование, сканирование": printing). Read when a notice has the code first.
  const okpd2ConceptsOf = new Map<string, ReadonlyArray<string>>()
  const okpd2Concepts = (code: string): ReadonlyArray<string> => {
    let concepts = okpd2ConceptsOf.get(code)
    if (concepts === undefined) {
      const label = lexicon.okpd2Labels.get(code)
      concepts = label === undefined ? [] : conceptsOfLabel("ru", label).concepts
      okpd2ConceptsOf.set(code, concepts)
    }
    return concepts
  }

  // The CPV prefixes (of three digits and more) of the codes whose label, in one of the notice's languages (of the
  // EU languages, Armenian, and the packs' Russian), has every content stem among a subject's word forms: a notice
  // filed under no code (gnumner list entries) names those its words name. Another language's label would read a
  // notice's word as its homonym (the English "racks" as the Swedish "räcke", a road barrier).
  const labelNamedPrefixes = (forms: ReadonlySet<string>, languages: ReadonlySet<string>): ReadonlySet<string> => {
    const prefixes = new Set<string>()
    for (const form of forms)
      for (const label of lexicon.labels.get(form) ?? [])
        if (label.scheme === undefined && languages.has(label.language) && label.stems.every((stem) => forms.has(stem)))
          for (const prefix of cpvPrefixesOf(cpvSignificant(label.code))) if (prefix.length >= 3) prefixes.add(prefix)
    return prefixes
  }

  // A tender's codes as terms: its CPV prefixes and OKPD2 levels, and the CPV prefixes its OKPD2 levels are linked to
  // by the crosswalk. The other way, CPV to OKPD2, is taken by the query (cpvOfOkpd2), not stored: every OKPD2 level
  // of every code linked to every CPV prefix was two thirds of a TED tender's terms and of the ingest's index writes.
  const codeTerms = (cpvPrefixes: ReadonlyArray<string>, okpd2Codes: ReadonlyArray<string>): ReadonlyArray<string> => {
    const cpv = new Set(cpvPrefixes)
    const okpd2 = new Set(okpd2Codes.flatMap(okpd2Levels))
    for (const level of okpd2)
      for (const code of lexicon.okpd2ToCpv.get(level) ?? [])
        for (const p of cpvPrefixesOf(code)) if (p.length <= code.length) cpv.add(p)
    return [...[...cpv].map(cpvTerm), ...[...okpd2].map(okpd2Term)]
  }
  // The CPV prefixes whose tenders an OKPD2 level (typed in a query) spans through the crosswalk: those linked to a
  // code at or under the level. A tender holds every prefix of its CPV codes (and of those its OKPD2 codes link to),
  // so it matches one of them exactly when it would hold the level had the crosswalk been applied to it; a prefix
  // under another of the list adds nothing and is left out.
  const cpvOfOkpd2 = new Map<string, Array<string>>()
  for (const [prefix, codes] of lexicon.cpvToOkpd2)
    for (const level of new Set(codes.flatMap(okpd2Levels))) {
      const list = cpvOfOkpd2.get(level)
      if (list === undefined) cpvOfOkpd2.set(level, [prefix])
      else list.push(prefix)
    }
  for (const [level, prefixes] of cpvOfOkpd2)
    cpvOfOkpd2.set(
      level,
      prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(q)))
    )

  // The words of a tender's text fields, once for its terms and its vocabulary words (an ingest asks for both).
  const recordWords = new WeakMap<TenderRecord, Readonly<Record<Exclude<Field, "codes">, ReadonlyArray<Word>>>>()
  const fieldWords = (record: TenderRecord) => {
    let words = recordWords.get(record)
    if (words === undefined) {
      const text = tenderText(record)
      words = { title: wordsOf(text.title), lots: wordsOf(text.lots), parties: wordsOf(text.parties) }
      recordWords.set(record, words)
    }
    return words
  }

  const documentTerms = (record: TenderRecord): DocumentTerms => {
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
    const fields = fieldWords(record)
    const subject = new Set<string>()
    const subjectForms = new Set<string>()
    // The languages of its labels that name a notice's codes: English (TED titles carry the English CPV label), its
    // country's, and those its script says (Armenian; Russian and Greek for a notice of no country of that script).
    const labelLanguages = new Set<string>(["en", ...(noticeLanguages[record.country ?? ""] ?? [])])
    for (const field of rankedFields) {
      if (field === "codes") continue
      const words = fields[field]
      const analysed = words.map((word) => termsOfWord(word, latin, languages))
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
    const codes = codeTerms(tenderCpvPrefixes(record), record.okpd2Codes)
    for (const term of codes) add(term, "codes")
    // The concepts of its codes' labels: every one of its own (most specific) codes' labels, and of a broader code's
    // label its one concept only: a label naming several ("Construction works for pipelines, communication and power
    // lines, for highways, roads, airfields and railways") lists what the codes under it may be, not what each is.
    const cpvPrefixes = codes
      .filter((term) => term.startsWith(cpvTermPrefix))
      .map((term) => term.slice(cpvTermPrefix.length))
    for (const prefix of cpvPrefixes) {
      const concepts = codeConcepts.get(prefix) ?? []
      const broader = cpvPrefixes.some(
        (other) =>
          other.length > prefix.length && other.startsWith(prefix) && cpvSignificant(other).length > prefix.length
      )
      if (!broader || concepts.length === 1) for (const concept of concepts) add(concept, "codes")
    }
    for (const code of record.okpd2Codes) for (const concept of okpd2Concepts(code)) add(concept, "codes")
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
      ...namedPrefixes(subject),
      ...(unclassified ? labelNamedPrefixes(subjectForms, labelLanguages) : [])
    ]) {
      const term = cpvTerm(prefix)
      if (!terms.has(term)) add(namedCodeTerm(term), "codes")
    }
    return terms
  }

  const queryPlan = (q: string): QueryPlan => {
    const normalized = normalizeText(q)
    const clauses: Array<{ text: string; weight: number; generic: boolean; alternatives: Map<string, MatchKind> }> = []
    const also: Array<string> = []
    // Codes first: an OKPD2 code with dots, or a CPV code or prefix (with or without its check digit).
    for (const match of normalized.matchAll(codePattern)) {
      const code = match[1] ?? ""
      const alternatives = new Map<string, MatchKind>()
      // Tenders whose text names the code, or another of its CPV category (the first five digits: "Roof repair"
      // for "Roof-covering work"), come after those classified under it.
      const named = (prefixes: ReadonlyArray<string>) => {
        for (const prefix of prefixes)
          for (const p of new Set([prefix, prefix.slice(0, categoryDigits)]))
            if (p.length >= 3) alternatives.set(namedCodeTerm(cpvTerm(p)), "named")
      }
      if (code.includes(".")) {
        alternatives.set(okpd2Term(code), "code")
        for (const prefix of cpvOfOkpd2.get(code) ?? []) alternatives.set(cpvTerm(prefix), "code")
        named(crosswalkOf(code))
      } else {
        const prefix = normalizeCpvPrefix(code.slice(0, 8))
        alternatives.set(code.split("-")[0] ?? code, "word")
        alternatives.set(cpvTerm(prefix), "code")
        named([prefix])
      }
      clauses.push({ text: code, weight: 1, generic: false, alternatives })
    }
    const rest = normalized.replace(codePattern, " ")
    const words = wordsOf(rest)
      .filter((word) => !stopWords.has(word.text))
      .slice(0, 32)
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
    const wordClauses = words.map((word, i) => {
      const alternatives = new Map<string, MatchKind>()
      for (const form of positions[i] ?? []) alternatives.set(form, "word")
      for (const t of translitTerms(word)) if (!alternatives.has(t)) alternatives.set(t, "concept")
      return { text: word.text, weight: 1, generic: false, alternatives }
    })
    const widen = (found: ReadonlyArray<{ concept: string; from: number; to: number }>) => {
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
    // Keyed by the code as the hint shows it ("CPV 3360", "OKPD2 21.20"): the stems its label matched by, its label's
    // every stem (the query words the code answers: "system" in "medicinal products for the nervous system"), and the
    // terms that find its tenders (an OKPD2 code's levels, and the CPV branches the crosswalk links to it).
    const labelCodes = new Map<
      string,
      {
        readonly stems: ReadonlyArray<string>
        readonly words: ReadonlySet<string>
        readonly terms: ReadonlyArray<string>
      }
    >()
    for (const form of specificForms) {
      for (const label of [...(lexicon.labels.get(form) ?? []), ...(sourceLabels().get(form) ?? [])]) {
        if (!label.stems.every((stem) => inLabelLanguage(stem, label.language))) continue
        const code = label.scheme === "okpd2" ? label.code : cpvSignificant(label.code)
        if (code.replaceAll(".", "").length < 3) continue
        const shown = label.scheme === "okpd2" ? `OKPD2 ${code}` : `CPV ${code}`
        const terms =
          label.scheme === "okpd2" ? [okpd2Term(code), ...(cpvOfOkpd2.get(code) ?? []).map(cpvTerm)] : [cpvTerm(code)]
        const known = labelCodes.get(shown)
        if (known === undefined || known.stems.length < label.stems.length) {
          labelCodes.set(shown, {
            stems: label.stems,
            words: new Set([...label.stems, ...(label.others ?? [])]),
            terms
          })
        }
      }
    }
    const codes = [...labelCodes]
      .toSorted((a, b) => b[1].stems.length - a[1].stems.length || a[0].localeCompare(b[0]))
      .slice(0, 8)
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
    const shownCodes = codes.slice(0, 3).map(([shown]) => shown)
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

  const documentWords = (record: TenderRecord): ReadonlyArray<string> => {
    const fields = fieldWords(record)
    const words = new Set<string>()
    for (const field of [fields.title, fields.lots, fields.parties]) {
      for (const word of field) {
        if ([...word.text].length < minCorrectable || !/\p{L}/u.test(word.text) || stopWords.has(word.text)) continue
        words.add(word.script === "latin" ? foldLatin(word.text) : word.text)
      }
    }
    return [...words]
  }

  // A clause is a possible misspelling when only its own forms (and their transliteration) find it: a word that
  // names a concept, a place or a code is known.
  const correctable = (plan: QueryPlan): ReadonlyArray<SpellingQuestion> =>
    plan.clauses.flatMap((clause) =>
      [...clause.text].length >= minCorrectable &&
      /\p{L}/u.test(clause.text) &&
      clause.alternatives.every((a) => a.kind === "word" || a.term.startsWith("t:"))
        ? [
            {
              text: clause.text,
              lookup: scriptOf(clause.text) === "latin" ? foldLatin(clause.text) : clause.text,
              forms: clause.alternatives.filter((a) => a.kind === "word").map((a) => a.term)
            }
          ]
        : []
    )

  // The query is planned again with the words read as corrected, so that a phrase a misspelt word belongs to is
  // found ("серверного оборудавания" is the concept "servers" once read as "оборудования"); the clauses of the
  // corrected words match as corrections. A correction is a word of the vocabulary (SearchText.documentWords: one
  // word, of letters, no stop word), so the clauses of the two plans line up one for one; were they not to, the plan
  // is left as typed.
  const corrected = (plan: QueryPlan, corrections: ReadonlyMap<string, string>): QueryPlan => {
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

  return { documentTerms, queryPlan, documentWords, correctable, corrected }
}

/** How much a generic procurement word ("supply", "поставка") counts, against 1 for any other. */
const genericWeight = 0.3

/** The digits of a CPV category (45261000: "Erection and related works of roof frames and coverings"). */
const categoryDigits = 5

/** The languages that write compounds as one word, and the shortest compound and part looked at. */
const compounding: ReadonlySet<StemmedLanguage> = new Set(compoundingLanguages)
const minCompound = 9
const minPart = minCompoundPart

/** How many words' analyses are kept (then the cache starts again). */
const wordCacheLimit = 100_000

/** Words shorter than this are never corrected (too many near neighbours). */
const minCorrectable = 4
