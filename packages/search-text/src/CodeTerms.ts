// Codes as terms, on both sides of the search: a tender holds its CPV prefixes and OKPD2 levels, the CPV prefixes its
// OKPD2 levels link to, and, marked as named, the codes its subject names; a code typed in a query asks for those
// terms. The crosswalk is applied one way on each side (OKPD2 to CPV stored, CPV to OKPD2 asked for), so a tender is
// found by a code of either classification without holding every linked level.

import { cpvPrefixesOf, cpvTerm, type MatchKind, namedCodeTerm, normalizeCpvPrefix } from "@tenders/core"
import type { Lexicon } from "./Lexicon.ts"
import { okpd2Levels, okpd2Term } from "./Okpd2.ts"

/**
 * A tender's codes as terms: its CPV prefixes and OKPD2 levels, and the CPV prefixes its OKPD2 levels are linked to
 * by the crosswalk. The other way, CPV to OKPD2, is taken by the query (`Lexicon.cpvOfOkpd2`), not stored: every
 * OKPD2 level of every code linked to every CPV prefix was two thirds of a TED tender's terms and of the ingest's
 * index writes.
 */
export const codeTerms = (
  lexicon: Lexicon,
  cpvPrefixes: ReadonlyArray<string>,
  okpd2Codes: ReadonlyArray<string>
): ReadonlyArray<string> => {
  const cpv = new Set(cpvPrefixes)
  const okpd2 = new Set(okpd2Codes.flatMap(okpd2Levels))
  for (const level of okpd2)
    for (const code of lexicon.okpd2ToCpv.get(level) ?? [])
      for (const p of cpvPrefixesOf(code)) if (p.length <= code.length) cpv.add(p)
  return [...[...cpv].map(cpvTerm), ...[...okpd2].map(okpd2Term)]
}

/** The CPV prefixes of a code and its broader ones, of three digits and more (a division names too much). */
const namedCodePrefixes = (code: string): ReadonlyArray<string> =>
  cpvPrefixesOf(normalizeCpvPrefix(code)).filter((prefix) => prefix.length >= 3)

/** The CPV prefixes (of three digits and more) of the codes a subject's concepts name (`conceptLabels`). */
export const namedPrefixes = (lexicon: Lexicon, concepts: ReadonlySet<string>): ReadonlySet<string> => {
  const prefixes = new Set<string>()
  for (const concept of concepts)
    for (const label of lexicon.labelConcepts.conceptLabels.get(concept) ?? [])
      if (label.concepts.every((c) => concepts.has(c)))
        for (const prefix of namedCodePrefixes(label.code)) prefixes.add(prefix)
  return prefixes
}

/**
 * The CPV prefixes (of three digits and more) of the codes whose label, in one of the notice's languages (of the EU
 * languages, Armenian, and the packs' Russian), has every content stem among a subject's word forms: a notice filed
 * under no code (gnumner list entries) names those its words name. Another language's label would read a notice's
 * word as its homonym (the English "racks" as the Swedish "räcke", a road barrier).
 */
export const labelNamedPrefixes = (
  lexicon: Lexicon,
  forms: ReadonlySet<string>,
  languages: ReadonlySet<string>
): ReadonlySet<string> => {
  const prefixes = new Set<string>()
  for (const form of forms)
    for (const label of lexicon.labels.get(form) ?? [])
      if (label.scheme === undefined && languages.has(label.language) && label.stems.every((stem) => forms.has(stem)))
        for (const prefix of namedCodePrefixes(label.code)) prefixes.add(prefix)
  return prefixes
}

/** A code in a query's text: an OKPD2 code with dots, or a CPV code or prefix (with or without its check digit). */
export const codePattern = /(?<![\p{L}\p{N}.])(\d{2}(?:\.\d{1,3}){1,3}|\d{2,8}(?:-\d)?)(?![\p{L}\p{N}]|\.\d)/gu

/** The digits of a CPV category (45261000: "Erection and related works of roof frames and coverings"). */
const categoryDigits = 5

/** The CPV prefixes an OKPD2 code is linked to by the crosswalk at its most specific linked level. */
const crosswalkOf = (lexicon: Lexicon, code: string): ReadonlyArray<string> =>
  okpd2Levels(code)
    .toReversed()
    .map((level) => lexicon.okpd2ToCpv.get(level) ?? [])
    .find((links) => links.length > 0) ?? []

/**
 * The terms a code typed in a query finds (`codePattern`): the code itself, as an OKPD2 level with the CPV prefixes
 * it spans, or as a CPV prefix and a word; and, after those classified under it, the tenders whose text names the code
 * or another of its CPV category ("Roof repair" for "Roof-covering work").
 */
export const codeAlternatives = (lexicon: Lexicon, code: string): Map<string, MatchKind> => {
  const alternatives = new Map<string, MatchKind>()
  const named = (prefixes: ReadonlyArray<string>) => {
    for (const prefix of prefixes)
      for (const p of new Set([prefix, prefix.slice(0, categoryDigits)]))
        if (p.length >= 3) alternatives.set(namedCodeTerm(cpvTerm(p)), "named")
  }
  if (code.includes(".")) {
    alternatives.set(okpd2Term(code), "code")
    for (const prefix of lexicon.cpvOfOkpd2.get(code) ?? []) alternatives.set(cpvTerm(prefix), "code")
    named(crosswalkOf(lexicon, code))
  } else {
    const prefix = normalizeCpvPrefix(code.slice(0, 8))
    alternatives.set(code.split("-")[0] ?? code, "word")
    alternatives.set(cpvTerm(prefix), "code")
    named([prefix])
  }
  return alternatives
}
