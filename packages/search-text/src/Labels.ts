// The classification labels as the query side matches them: each label's stems in its language, what it excludes
// cut off, generic stems apart; the shipped CPV labels (`cpv-label-index.jsonl`), the packs' and the sources'.

import type { PackData, SourceLabel } from "@tenders/core"
import { Schema } from "effect"
import { normalizeText, wordsOf } from "./Normalize.ts"
import { stemIn } from "./Stemming.ts"

/** A CPV code (8 digits, no check digit) with its labels per language (`cpv.jsonl`). */
export const CpvEntry = Schema.Struct({ code: Schema.String, labels: Schema.Record(Schema.String, Schema.String) })
export type CpvEntry = typeof CpvEntry.Type

/**
 * Our Russian label of a CPV code (`cpv-ru-own.jsonl`): a translation where the Russian CPV has none, or a correction
 * of its label.
 */
export const OwnRussianLabel = Schema.Struct({
  code: Schema.String,
  ru: Schema.String,
  source: Schema.Literals(["translation", "correction"])
})
export type OwnRussianLabel = typeof OwnRussianLabel.Type

/**
 * The words after which a classification label names what its code does not cover ("Office equipment except
 * furniture", "Arzneimittel, ausgenommen ...", "кроме ..."), per language: written lower case as `normalizeText`
 * makes them. Languages that put the exception after the excluded words (Finnish, Estonian) are not listed.
 */
const exceptionWords: Readonly<Record<string, ReadonlyArray<string>>> = {
  en: ["except", "excluding", "excl", "other than", "not including", "with the exception of"],
  de: ["ausgenommen", "außer", "ausser", "mit ausnahme"],
  fr: ["sauf", "excepté", "à l'exception", "à l’exception", "à l'exclusion", "à l’exclusion", "autres que", "hors"],
  es: ["excepto", "salvo", "con exclusión", "distintos de", "distintas de"],
  it: ["escluso", "esclusi", "esclusa", "escluse", "eccetto", "tranne", "ad eccezione", "diversi da", "diverse da"],
  pt: ["exceto", "excepto", "com exceção", "com excepção", "excluindo", "com exclusão"],
  nl: ["behalve", "met uitzondering", "uitgezonderd", "exclusief"],
  pl: ["z wyjątkiem", "oprócz", "inne niż"],
  ru: ["кроме", "за исключением"],
  bg: ["с изключение", "освен"],
  sv: ["utom", "med undantag", "förutom"],
  da: ["undtagen", "med undtagelse", "bortset fra"],
  cs: ["kromě", "s výjimkou"],
  sk: ["okrem", "s výnimkou"],
  sl: ["razen"],
  hr: ["osim", "isključujući"],
  ro: ["cu excepția", "exceptând", "altele decât"],
  hu: ["kivéve"],
  lt: ["išskyrus"],
  lv: ["izņemot"],
  el: ["εκτός"],
  mt: ["ħlief"],
  ga: ["seachas", "ach amháin"]
}
const exceptionPatterns = new Map(
  Object.entries(exceptionWords).map(([language, words]) => [
    language,
    new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])[^;)]*`, "gu")
  ])
)

/**
 * A label without what it excludes: the words from an exception word of its language to the end of that clause (a
 * `;` or `)`). What a code does not cover names neither it nor its concepts.
 */
export const labelScope = (language: string, label: string): string => {
  const pattern = exceptionPatterns.get(language)
  return pattern === undefined ? label : normalizeText(label).replace(pattern, " ")
}

/**
 * A classification label as the query side matches it: the stems that are not generic in its language, and its code:
 * a CPV code (8 digits), or an OKPD2 code (dotted) when `scheme` says so.
 */
export const LabelMatch = Schema.Struct({
  code: Schema.String,
  /** The language of the label (ISO 639-1): a notice's words name codes by the labels of its own languages only. */
  language: Schema.String,
  stems: Schema.Array(Schema.String),
  /**
   * The label's generic stems ("products", "system"): they do not name the code, but a query word they are is one
   * the code answers once its content stems have named it.
   */
  others: Schema.optionalKey(Schema.Array(Schema.String)),
  scheme: Schema.optionalKey(Schema.Literal("okpd2"))
})
export type LabelMatch = typeof LabelMatch.Type

/**
 * Share of a language's labels a stem may appear in before it counts as generic ("works", "and", "services"); a
 * stem in at most `genericFloor` labels never is.
 */
const genericShare = 0.01
const genericFloor = 5

/**
 * The CPV labels as the query side matches them: per label, its stems that are not generic in its language (a stem
 * found in more than `genericShare` of a language's labels, such as "works", "and", "services"), once per code,
 * language and stem set, and its generic ones apart (`others`); labels of generic stems only are left out. Stop words
 * are no stems of a label: a query's are dropped before its words are matched.
 */
export const indexLabels = (
  cpv: ReadonlyArray<CpvEntry>,
  stopWords: ReadonlySet<string>
): ReadonlyArray<LabelMatch> => {
  // How generic a stem is counts the labels as published; what a label names, only the words before its exception.
  const stemmed = cpv.flatMap((entry) =>
    Object.entries(entry.labels).map(([language, label]) => ({
      code: entry.code,
      language,
      published: labelStems(language, label, stopWords),
      stems: labelStems(language, labelScope(language, label), stopWords)
    }))
  )
  const frequency = new Map<string, number>()
  const perLanguage = new Map<string, number>()
  for (const label of stemmed) {
    perLanguage.set(label.language, (perLanguage.get(label.language) ?? 0) + 1)
    for (const stem of label.published) {
      frequency.set(`${label.language}|${stem}`, (frequency.get(`${label.language}|${stem}`) ?? 0) + 1)
    }
  }
  return labelMatches(
    stemmed,
    (language, stem) =>
      (frequency.get(`${language}|${stem}`) ?? 0) >
      Math.max(genericFloor, genericShare * (perLanguage.get(language) ?? 1))
  )
}

/** A label's stems in its language, each once: its words but the stop words (a query's are dropped before matching). */
const labelStems = (language: string, text: string, stopWords: ReadonlySet<string>): ReadonlyArray<string> => [
  ...new Set(
    wordsOf(text)
      .filter((word) => !stopWords.has(word.text))
      .map((word) => stemIn(language, word))
  )
]

/**
 * Stemmed labels as the query side matches them, once per code, language and content stem set: the stems `generic`
 * says name nothing are kept apart (`others`), and a label of generic stems only is left out.
 */
const labelMatches = (
  labels: Iterable<{ readonly code: string; readonly language: string; readonly stems: ReadonlyArray<string> }>,
  generic: (language: string, stem: string) => boolean
): Array<LabelMatch> => {
  const seen = new Set<string>()
  const matches: Array<LabelMatch> = []
  for (const { code, language, stems } of labels) {
    const content = stems.filter((stem) => !generic(language, stem)).toSorted()
    const others = stems.filter((stem) => generic(language, stem)).toSorted()
    const key = `${code}|${language}|${content.join(" ")}`
    if (content.length === 0 || seen.has(key)) continue
    seen.add(key)
    matches.push({ code, language, stems: content, ...(others.length > 0 ? { others } : {}) })
  }
  return matches
}

/**
 * A label's generic stem (of its `others`) as `sourceLabelIndex` is given the shipped ones: in a source's label of
 * that language, the stem names nothing.
 */
export const genericStemKey = (language: string, stem: string): string => `${language}|${stem}`

/**
 * The labels sources publish beside their codes (`SourceLabel`: ARMEPS's Armenian names of CPV codes), as the query
 * side matches them: each name's stems, of which those generic in the shipped labels of its language (`generic`, by
 * `genericStemKey`) name nothing, by content stem. A name of generic words only is left out.
 */
export const sourceLabelIndex = (
  labels: ReadonlyArray<SourceLabel>,
  generic: ReadonlySet<string>,
  stopWords: ReadonlySet<string>
): ReadonlyMap<string, ReadonlyArray<LabelMatch>> => {
  const stemmed = labels.map(({ code, language, name }) => ({
    code,
    language,
    stems: labelStems(language, labelScope(language, name), stopWords)
  }))
  const byStem = new Map<string, Array<LabelMatch>>()
  for (const match of labelMatches(stemmed, (language, stem) => generic.has(genericStemKey(language, stem))))
    for (const stem of match.stems) byStem.set(stem, [...(byStem.get(stem) ?? []), match])
  return byStem
}

/**
 * The Russian labels of the CPV codes: the `cpv-ru` pack's, with ours where it has none and where its label says
 * something else (`cpv-ru-own.jsonl`); ours alone without the pack.
 */
export const russianCpvLabels = (packs: PackData, own: ReadonlyArray<OwnRussianLabel>): ReadonlyMap<string, string> => {
  const labels = new Map((packs.packs.get("cpv-ru") ?? []).map(({ code, label }) => [code, label]))
  for (const { code, ru } of own) labels.set(code, ru)
  return labels
}

/**
 * The labels of the classification packs as the query side matches them (`indexLabels`, each pack's stems counted
 * apart): the CPV codes' Russian labels (`russianCpvLabels`), and the OKPD2 codes' (their own scheme).
 */
export const packLabels = (
  packs: PackData,
  ownRussian: ReadonlyArray<OwnRussianLabel>,
  stopWords: ReadonlySet<string>
): ReadonlyArray<LabelMatch> => {
  const okpd2 = (packs.packs.get("okpd2") ?? []).map(({ code, label }) => ({ code, labels: { ru: label } }))
  const russian = [...russianCpvLabels(packs, ownRussian)].map(([code, label]) => ({ code, labels: { ru: label } }))
  return [
    ...indexLabels(russian, stopWords),
    ...indexLabels(okpd2, stopWords).map((match): LabelMatch => ({ ...match, scheme: "okpd2" }))
  ]
}

/** The label index file's content: one JSON line per label match. */
export const labelIndexLines = (labels: ReadonlyArray<LabelMatch>): string =>
  labels.map((label) => JSON.stringify(label)).join("\n") + "\n"
