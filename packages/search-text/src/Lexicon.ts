import { readFileSync } from "node:fs"
import { join } from "node:path"
import { type CpvEntry, indexLabels, type LabelMatch, type OwnRussianLabel } from "./Labels.ts"
import { phraseStems } from "./Stemming.ts"
import { type LabelConcepts, labelConceptsOf } from "./LabelConcepts.ts"
import { asWritten, wordsOf } from "./Normalize.ts"
import { cpvSpannedByLevel } from "./Okpd2.ts"
import { indexPhrases, type Phrase, type PhraseIndex } from "./Phrases.ts"

/** A link of the CPV ↔ OKPD2 crosswalk: the CPV branch (a code without its trailing zeros) an OKPD2 branch lies in. */
export interface CrosswalkLink {
  readonly okpd2: string
  readonly cpv: string
}

/**
 * How a hand-made link's two branches relate: about the same products (`exact`), the OKPD2 branch inside the CPV one
 * (`okpd2-narrower`), the reverse (`cpv-narrower`), or most of the OKPD2 branch inside the CPV one (`partial`).
 */
export type LinkPrecision = "exact" | "okpd2-narrower" | "cpv-narrower" | "partial"

/** A link of the hand-made crosswalk (`cpv-okpd2.jsonl`, written from the titles and notes of both classifications). */
export interface ManualLink extends CrosswalkLink {
  readonly precision: LinkPrecision
}

/** The hand-made crosswalk: its links, and the pairs of divisions (OKPD2, CPV) a label match may also join. */
export interface ManualCrosswalk {
  readonly links: ReadonlyArray<ManualLink>
  readonly related: ReadonlyArray<readonly [okpd2: string, cpv: string]>
}

/**
 * A glossary concept: its terms per language (ISO 639-1), dictionary forms, and the concepts it is a kind of
 * (`broader`: every laptop is a computer, every diesel fuel a fuel).
 */
export interface GlossaryEntry {
  readonly id: string
  readonly generic?: boolean
  readonly broader?: ReadonlyArray<string>
  readonly [language: string]: ReadonlyArray<string> | string | boolean | undefined
}

/** A place with its names per language and the NUTS codes of its territory. */
export interface PlaceEntry {
  readonly id: string
  readonly names: Readonly<Record<string, ReadonlyArray<string>>>
  readonly nuts?: ReadonlyArray<string>
  /** The place (a region of the file) this one lies in: a notice naming Meghri is in Syunik. */
  readonly within?: string
}

/**
 * The data the analysis reads; CPV labels as `indexLabels` makes them (shipped precomputed: stemming them takes
 * seconds).
 */
export interface LexiconData {
  readonly glossary: ReadonlyArray<GlossaryEntry>
  readonly places: ReadonlyArray<PlaceEntry>
  readonly labels: ReadonlyArray<LabelMatch>
  /** The CPV ↔ OKPD2 links: the hand-made ones, and those the packs' labels make (`labelLinks`). */
  readonly crosswalk: ReadonlyArray<CrosswalkLink>
  /** The hand-made crosswalk (`cpv-okpd2.jsonl`, `cpv-okpd2-related.json`). */
  readonly manualCrosswalk: ManualCrosswalk
  /** Our Russian labels of CPV codes: where the Russian CPV has none, and where its label says something else. */
  readonly cpvRussian: ReadonlyArray<OwnRussianLabel>
  /** The English label of each CPV code (the concepts it names: `labelConceptsOf`). */
  readonly cpvEnglish: ReadonlyArray<EnglishLabel>
  /** The stems of the CPV labels' words in each language that writes compounds as one word (`compoundPartsOf`). */
  readonly compoundParts: ReadonlyMap<string, ReadonlySet<string>>
  /** The Russian label of each OKPD2 code of the `okpd2` pack (none without it). */
  readonly okpd2Labels?: ReadonlyMap<string, string>
}

/** A CPV code (8 digits, no check digit) and its English label. */
export interface EnglishLabel {
  readonly code: string
  readonly label: string
}

/**
 * A glossary term written `=words` is matched as written (without diacritics), not by its stems: for a word whose
 * stem is also the stem of common words of another meaning (the Portuguese "publicidade", advertising, stems to
 * "public", as "público" does; the English "engineering" to "engin", as "engines" does).
 */
const exactMark = "="

/** A glossary term as people read it (without the `=` of an exact term). */
export const termText = (term: string): string => (term.startsWith(exactMark) ? term.slice(exactMark.length) : term)

/**
 * A one-word glossary term in Latin script whose stem is this short, is not the word itself, and is also the stem of
 * a one-word term of another concept, is matched as written: the stem stands for unrelated words of the many
 * Latin-script languages (the French "route", road, and the German "Router" are both "rout"; the Italian "gara",
 * tender, and the French "gare", station, both "gar"). A short stem of one concept only is kept ("wast" finds
 * "wastes"), and Cyrillic and Armenian terms, one stemmer each, keep theirs ("школа" is "школ").
 */
const maxAmbiguousStem = 4

/**
 * The stems of every glossary term, a term marked `=` as written, and the short stems that two concepts share. A
 * one-word term whose stem is a stop word of some language is matched as written ("metano", natural gas, is not the
 * Dutch "met", with), and not at all when the word as written is one too (the French "thé", tea, is the English "the";
 * the Swedish "by", village, the English "by"): it cannot be told from the stop word in a text.
 */
const glossaryStems = (glossary: ReadonlyArray<GlossaryEntry>, stopWords: ReadonlySet<string>) => {
  const stemsOf = new Map<string, ReadonlyArray<string>>()
  const conceptsOfStem = new Map<string, Set<string>>()
  // One word in Latin script, whose stem is short and not the word.
  const shortStem = (term: string, stems: ReadonlyArray<string>) => {
    const words = wordsOf(term)
    const [word] = words
    const [stem = ""] = stems
    return (
      word !== undefined &&
      words.length === 1 &&
      word.script === "latin" &&
      [...stem].length <= maxAmbiguousStem &&
      stem !== asWritten(word)
    )
  }
  for (const entry of glossary)
    for (const [language, list] of languageTerms(entry))
      for (const term of list) {
        const exact = term.startsWith(exactMark)
        const stems = exact ? wordsOf(termText(term)).map(asWritten) : phraseStems(language, term)
        stemsOf.set(`${language}\u0000${term}`, stems)
        if (!exact && shortStem(term, stems)) {
          const stem = stems[0] ?? ""
          conceptsOfStem.set(stem, new Set([...(conceptsOfStem.get(stem) ?? []), entry.id]))
        }
      }
  /** The stems a term is matched by; none when it cannot be told from a stop word. */
  return (language: string, term: string): ReadonlyArray<string> => {
    const stems = stemsOf.get(`${language}\u0000${term}`) ?? phraseStems(language, term)
    const written = wordsOf(termText(term)).map(asWritten)
    if (stems.length === 1 && stopWords.has(stems[0] ?? "")) return stopWords.has(written[0] ?? "") ? [] : written
    const shared = (conceptsOfStem.get(stems[0] ?? "")?.size ?? 0) > 1
    return shared && !term.startsWith(exactMark) && shortStem(term, stems) ? written : stems
  }
}

/** The lexicon, indexed for the analysis: every index the analysis reads, built from the data here. */
export interface Lexicon {
  readonly concepts: PhraseIndex
  /**
   * The concepts' English phrases only (matched against English CPV labels, where another language's homonyms would
   * mislead: the Finnish "tie", road, is the English "ties").
   */
  readonly englishConcepts: PhraseIndex
  /** The concepts' Russian phrases only (matched against the OKPD2 labels, for the same reason). */
  readonly russianConcepts: PhraseIndex
  readonly places: PhraseIndex
  /** Concept id -> readable names per language (for the hint). */
  readonly names: ReadonlyMap<string, Readonly<Record<string, ReadonlyArray<string>>>>
  readonly generic: ReadonlySet<string>
  /** Concept -> the concepts it is a kind of, at every remove (its glossary entry's `broader`, theirs, ...). */
  readonly broader: ReadonlyMap<string, ReadonlyArray<string>>
  /** NUTS code -> place concepts. */
  readonly nuts: ReadonlyMap<string, ReadonlyArray<string>>
  /** Place concept -> the place concepts it lies in, nearest first. */
  readonly within: ReadonlyMap<string, ReadonlyArray<string>>
  /** Content stem -> the CPV labels having it. */
  readonly labels: ReadonlyMap<string, ReadonlyArray<LabelMatch>>
  /** OKPD2 code -> the CPV prefixes the crosswalk links it to. */
  readonly okpd2ToCpv: ReadonlyMap<string, ReadonlyArray<string>>
  /** OKPD2 level -> the CPV prefixes it spans through the crosswalk (`cpvSpannedByLevel`). */
  readonly cpvOfOkpd2: ReadonlyMap<string, ReadonlyArray<string>>
  /** The concepts the CPV and OKPD2 labels name (`labelConceptsOf`). */
  readonly labelConcepts: LabelConcepts
  /**
   * Per language, the stems a compound of German, Dutch or a Nordic language may be split into (and the glossary's).
   */
  readonly compoundParts: ReadonlyMap<string, ReadonlySet<string>>
}

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (!list.includes(value)) list.push(value)
}

const languageTerms = (entry: GlossaryEntry): ReadonlyArray<readonly [string, ReadonlyArray<string>]> =>
  Object.entries(entry).flatMap(([key, value]) =>
    key !== "broader" && Array.isArray(value) ? [[key, value as Array<string>] as const] : []
  )

/** Indexes lexicon data for the analysis. */
export const buildLexicon = (data: LexiconData, stopWords: ReadonlySet<string> = new Set()): Lexicon => {
  const names = new Map<string, Readonly<Record<string, ReadonlyArray<string>>>>()
  const conceptPhrases: Array<Phrase> = []
  const englishPhrases: Array<Phrase> = []
  const russianPhrases: Array<Phrase> = []
  const generic = new Set<string>()
  const termStems = glossaryStems(data.glossary, stopWords)
  for (const entry of data.glossary) {
    const concept = `c:${entry.id}`
    if (entry.generic === true) generic.add(concept)
    const terms = languageTerms(entry)
    names.set(concept, Object.fromEntries(terms.map(([language, list]) => [language, list.map(termText)])))
    for (const [language, list] of terms) {
      for (const term of list) {
        const phrase = { stems: termStems(language, term), concept, languages: [language] }
        if (phrase.stems.length === 0) continue
        conceptPhrases.push(phrase)
        if (language === "en") englishPhrases.push(phrase)
        if (language === "ru") russianPhrases.push(phrase)
      }
    }
  }
  const placePhrases: Array<Phrase> = []
  const nuts = new Map<string, Array<string>>()
  for (const place of data.places) {
    const concept = `p:${place.id}`
    names.set(concept, place.names)
    for (const [language, list] of Object.entries(place.names)) {
      for (const name of list) placePhrases.push({ stems: phraseStems(language, name), concept })
    }
    for (const code of place.nuts ?? []) push(nuts, code, concept)
  }
  const parentOf = new Map(
    data.places.flatMap((place) => (place.within === undefined ? [] : [[place.id, place.within]]))
  )
  const within = new Map<string, ReadonlyArray<string>>()
  for (const place of data.places) {
    const chain: Array<string> = []
    for (let up = parentOf.get(place.id); up !== undefined && !chain.includes(`p:${up}`); up = parentOf.get(up))
      chain.push(`p:${up}`)
    if (chain.length > 0) within.set(`p:${place.id}`, chain)
  }

  const broaderOf = new Map(data.glossary.map((entry) => [entry.id, entry.broader ?? []]))
  const broader = new Map<string, ReadonlyArray<string>>()
  for (const entry of data.glossary) {
    const found: Array<string> = []
    const queue = [...(entry.broader ?? [])]
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (id === entry.id || found.includes(`c:${id}`)) continue
      found.push(`c:${id}`)
      queue.push(...(broaderOf.get(id) ?? []))
    }
    if (found.length > 0) broader.set(`c:${entry.id}`, found)
  }

  const labels = new Map<string, Array<LabelMatch>>()
  for (const match of data.labels) for (const stem of match.stems) push(labels, stem, match)

  const okpd2ToCpv = new Map<string, Array<string>>()
  const cpvToOkpd2 = new Map<string, Array<string>>()
  for (const link of data.crosswalk) {
    push(okpd2ToCpv, link.okpd2, link.cpv)
    push(cpvToOkpd2, link.cpv, link.okpd2)
  }
  const englishConcepts = indexPhrases(englishPhrases)
  const russianConcepts = indexPhrases(russianPhrases)
  return {
    concepts: indexPhrases(conceptPhrases),
    englishConcepts,
    russianConcepts,
    places: indexPhrases(placePhrases),
    names,
    generic,
    broader,
    nuts,
    within,
    labels,
    okpd2ToCpv,
    cpvOfOkpd2: cpvSpannedByLevel(cpvToOkpd2),
    labelConcepts: labelConceptsOf(
      { en: englishConcepts, ru: russianConcepts, generic },
      { cpvEnglish: data.cpvEnglish, okpd2Labels: data.okpd2Labels ?? new Map() },
      stopWords
    ),
    compoundParts: data.compoundParts
  }
}

const parseJsonLines = <A>(text: string): ReadonlyArray<A> =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as A)

const readJsonLines = <A>(path: string): ReadonlyArray<A> => parseJsonLines(readFileSync(path, "utf8"))

/** The data files shipped with this package (`data/`, described in docs/search-data.md). */
export const dataDirectory = join(import.meta.dirname, "..", "data")

/** The lexicon's files, by role, relative to the data directory. */
const lexiconFiles = {
  glossary: "glossary.jsonl",
  places: "places.jsonl",
  labels: join("classifications", "cpv-label-index.jsonl"),
  crosswalk: join("classifications", "cpv-okpd2.jsonl"),
  crosswalkRelated: join("classifications", "cpv-okpd2-related.json"),
  cpvRussian: join("classifications", "cpv-ru-own.jsonl"),
  cpv: join("classifications", "cpv.jsonl"),
  compoundParts: join("classifications", "compound-parts.json")
} as const

/** Reads the CPV codes with their labels in the 24 EU languages. */
export const readCpv = (directory: string = dataDirectory): ReadonlyArray<CpvEntry> =>
  readJsonLines<CpvEntry>(join(directory, lexiconFiles.cpv))

/** Our Armenian labels of the CPV down to the class: several a code, as Armenian notices word them. */
export interface CpvArmenian {
  readonly code: string
  readonly hy: ReadonlyArray<string>
}

/** Reads our Armenian CPV labels (`cpv-hy.jsonl`, docs/search-data.md). */
export const readCpvArmenian = (directory: string = dataDirectory): ReadonlyArray<CpvArmenian> =>
  readJsonLines<CpvArmenian>(join(directory, "classifications", "cpv-hy.jsonl"))

/**
 * The shipped CPV labels as the query side matches them, the content of `cpv-label-index.jsonl`: the 24 EU languages'
 * labels and our Armenian ones (each Armenian label its own entry).
 */
export const shippedLabels = (
  stopWords: ReadonlySet<string>,
  directory: string = dataDirectory
): ReadonlyArray<LabelMatch> =>
  indexLabels(
    [
      ...readCpv(directory),
      ...readCpvArmenian(directory).flatMap(({ code, hy }) => hy.map((label) => ({ code, labels: { hy: label } })))
    ],
    stopWords
  )

/** The text of the lexicon's files (what the analysis version hashes, before any parsing). */
export const readLexiconFiles = (directory: string = dataDirectory): Record<keyof typeof lexiconFiles, string> => {
  const read = (role: keyof typeof lexiconFiles) => readFileSync(join(directory, lexiconFiles[role]), "utf8")
  return {
    glossary: read("glossary"),
    places: read("places"),
    labels: read("labels"),
    crosswalk: read("crosswalk"),
    crosswalkRelated: read("crosswalkRelated"),
    cpvRussian: read("cpvRussian"),
    cpv: read("cpv"),
    compoundParts: read("compoundParts")
  }
}

/** Parses the lexicon's files. */
export const parseLexiconData = (files: Record<keyof typeof lexiconFiles, string>): LexiconData => {
  const manual: ManualCrosswalk = {
    links: parseJsonLines<ManualLink>(files.crosswalk),
    related: JSON.parse(files.crosswalkRelated) as ManualCrosswalk["related"]
  }
  return {
    glossary: parseJsonLines<GlossaryEntry>(files.glossary),
    places: parseJsonLines<PlaceEntry>(files.places),
    labels: parseJsonLines<LabelMatch>(files.labels),
    crosswalk: manual.links,
    manualCrosswalk: manual,
    cpvRussian: parseJsonLines<OwnRussianLabel>(files.cpvRussian),
    cpvEnglish: parseJsonLines<CpvEntry>(files.cpv).flatMap((entry) =>
      entry.labels.en === undefined ? [] : [{ code: entry.code, label: entry.labels.en }]
    ),
    compoundParts: new Map(
      Object.entries(JSON.parse(files.compoundParts) as Record<string, Array<string>>).map(([language, stems]) => [
        language,
        new Set(stems)
      ])
    )
  }
}

/** Reads the shipped lexicon data. */
export const readLexiconData = (directory: string = dataDirectory): LexiconData =>
  parseLexiconData(readLexiconFiles(directory))
