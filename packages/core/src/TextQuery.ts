import { Context } from "effect"
import type { PackData } from "./Classifications.ts"
import type { SourceLabel } from "./SourceNotice.ts"
import type { TenderRecord } from "./Tender.ts"
import { subjectOf } from "./TenderRead.ts"

/**
 * How a query word was matched, best first: a word of the text (its own stem in some language), a concept (a
 * glossary entry, a place, a transliteration), a classification code, a spelling correction, a code the tender's
 * text names without being classified under it (its subject is a CPV label's words).
 */
export type MatchKind = "word" | "concept" | "code" | "correction" | "named"

/** One way a query word can be found in a tender: an index term and how good a match it is. */
export interface Alternative {
  readonly term: string
  readonly kind: MatchKind
}

/** A word (or code) of the query with every term that finds it; a tender matches it when it has any of them. */
export interface Clause {
  /** The query text the clause stands for, as typed (lower-cased). */
  readonly text: string
  /** How much the clause counts in the score (low for words found in almost every notice). */
  readonly weight: number
  /** A generic procurement word ("supply", "поставка", "ձեռքբերում"): it counts little and a tender may lack it. */
  readonly generic?: boolean
  readonly alternatives: ReadonlyArray<Alternative>
}

/** What a free-text query searches for: its clauses, and what was also searched, for the `hint`. */
export interface QueryPlan {
  readonly clauses: ReadonlyArray<Clause>
  /** Readable names of the concepts, translations and codes the query was widened with. */
  readonly also: ReadonlyArray<string>
  /** Words the index does not know that were read as others: `[typed, read as]`. */
  readonly corrections: ReadonlyArray<readonly [string, string]>
}

/** A query word the index may not know: its text and the terms it is looked up by. */
export interface SpellingQuestion {
  /** The clause's text, as the plan has it (the key of its correction). */
  readonly text: string
  /** The word as the vocabulary of indexed words writes it (Latin without diacritics). */
  readonly lookup: string
  /** The terms that find the word as typed: when the index has none of them, the word is unknown. */
  readonly forms: ReadonlyArray<string>
}

/** The empty plan (no `q`). */
export const noText: QueryPlan = { clauses: [], also: [], corrections: [] }

/** Where in a tender a term occurs, best first: its title, lot names, buyer and place, codes and ids. */
export type Field = "title" | "lots" | "parties" | "codes"

/** The index terms of a tender, each with the best field it occurs in. */
export type DocumentTerms = ReadonlyMap<string, Field>

/** The store's tsvector weight of each field (A is the highest). */
export const fieldLetter: Readonly<Record<Field, "A" | "B" | "C" | "D">> = {
  title: "A",
  lots: "B",
  parties: "C",
  codes: "D"
}

/** Ranking: how much a match in each field counts (title above lots above buyer above codes). */
export const fieldWeight: Readonly<Record<Field, number>> = { title: 1, lots: 0.6, parties: 0.4, codes: 0.3 }

/**
 * Ranking: how much each kind of match counts (exact words above concepts above codes above corrections above codes
 * named by the text only).
 */
export const kindWeight: Readonly<Record<MatchKind, number>> = {
  word: 1,
  concept: 0.7,
  code: 0.5,
  correction: 0.45,
  named: 0.4
}

/** The best match of a clause in a tender's terms, 0 when none of its alternatives occurs. */
export const clauseScore = (clause: Clause, terms: DocumentTerms): number => {
  let best = 0
  for (const alternative of clause.alternatives) {
    const field = terms.get(alternative.term)
    if (field !== undefined) best = Math.max(best, kindWeight[alternative.kind] * fieldWeight[field])
  }
  return best
}

/**
 * The alternatives of a clause whose kind counts most: a tender with one of them in its title gets the clause's
 * highest score. A tender with every clause's best alternatives in its title has the highest relevance a tender
 * can have for the query, so those tenders come first, by deadline (the store's first tier, RankedSearch.ts).
 */
export const bestAlternatives = (clause: Clause): ReadonlyArray<Alternative> => {
  const top = Math.max(...clause.alternatives.map((a) => kindWeight[a.kind]))
  return clause.alternatives.filter((a) => kindWeight[a.kind] === top)
}

/**
 * The relevance of a tender to a query: the sum over clauses of the clause weight times its best match. The
 * store's SQL computes the same sum (store-postgres SearchSql.ts `relevanceSql`); equal scores fall back to the
 * nearest deadline, then the id.
 */
export const relevance = (plan: QueryPlan, terms: DocumentTerms): number =>
  plan.clauses.reduce((sum, clause) => sum + clause.weight * clauseScore(clause, terms), 0)

/**
 * How rare a clause is, as BM25 weighs a term (its inverse document frequency): `ln(1 + (N - n + 0.5) / (n + 0.5))`
 * for a clause `n` of `N` tenders have. A clause every tender has weighs almost nothing.
 */
export const clauseRarity = (matches: number, tenders: number): number =>
  Math.log(1 + (Math.max(tenders - matches, 0) + 0.5) / (Math.max(matches, 0) + 0.5))

/**
 * The plan with each clause's weight times its rarity (`clauseRarity` of the tenders having any of its terms, from
 * the statistics the store keeps), scaled so that the weights keep their sum: of two tenders matching as well, the
 * one with the rarer word ranks first ("Macroom road" puts Macroom's tender above every road). A one-clause plan, or
 * one whose counts the store does not know, is left as it is.
 */
export const weighClauses = (plan: QueryPlan, matchesOf: (clause: Clause) => number, tenders: number): QueryPlan => {
  if (plan.clauses.length < 2 || !(tenders > 0)) return plan
  const counts = plan.clauses.map(matchesOf)
  if (!counts.every(Number.isFinite)) return plan
  const rarities = counts.map((count) => clauseRarity(Math.min(count, tenders), tenders))
  const weighted = plan.clauses.map((clause, i) => clause.weight * (rarities[i] ?? 0))
  const total = weighted.reduce((sum, w) => sum + w, 0)
  const before = plan.clauses.reduce((sum, clause) => sum + clause.weight, 0)
  if (!(total > 0)) return plan
  return {
    ...plan,
    clauses: plan.clauses.map((clause, i) => ({ ...clause, weight: ((weighted[i] ?? 0) * before) / total }))
  }
}

/**
 * The terms by which a tender has a clause for certain: all but the codes a text was found to name (`named`, a guess
 * from words). A generic clause has none: a tender need not have it.
 */
export const wholeTerms = (clause: Clause): ReadonlyArray<string> =>
  clause.generic === true ? [] : clause.alternatives.filter((a) => a.kind !== "named").map((a) => a.term)

/**
 * Whether a tender has everything the query is about: every clause but the generic ones, by its `wholeTerms`. Those
 * tenders rank first (`rankOrder`).
 */
export const matchesWhole = (clauses: ReadonlyArray<Clause>, terms: ReadonlySet<string> | DocumentTerms) =>
  clauses.every((clause) => clause.generic === true || wholeTerms(clause).some((term) => terms.has(term)))

/** Tenders by deadline, the nearest first and those without one last, then by id (the store's `deadline_sort, id`). */
export const deadlineOrder = (
  a: { readonly deadline: string | null; readonly id: string },
  b: { readonly deadline: string | null; readonly id: string }
): number => {
  const da = a.deadline ?? "9999"
  const db = b.deadline ?? "9999"
  return da < db ? -1 : da > db ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * The order of ranked tenders: those matching the whole query first (`matchesWhole`), then by relevance
 * (`relevance` of the weighed plan), then the nearest deadline, then the id (the store's SQL orders the same way:
 * RankedSearch.ts).
 */
export const rankOrder =
  <T extends { readonly whole: boolean; readonly score: number }>(byDeadline: (a: T, b: T) => number) =>
  (a: T, b: T): number =>
    Number(b.whole) - Number(a.whole) || b.score - a.score || byDeadline(a, b)

/** Whether a tender has every clause of the query (what a watchlist alerts on and `estimatedMatches` counts). */
export const hasEveryClause = (clauses: ReadonlyArray<Clause>, terms: ReadonlySet<string> | DocumentTerms) =>
  clauses.every((clause) => clause.alternatives.some((a) => terms.has(a.term)))

/** The fields in ranking order, best first. */
export const rankedFields: ReadonlyArray<Field> = ["title", "lots", "parties", "codes"]

/** The term of a CPV prefix (2..8 digits, no check digit): what the `cpv` filter and typed codes look for. */
export const cpvTerm = (prefix: string): string => `${cpvTermPrefix}${prefix}`

/** What every CPV term starts with (a tender's CPV prefixes are its terms that start with it). */
export const cpvTermPrefix = "cpv:"

/**
 * The term of a code a tender's text names (a CPV prefix or OKPD2 level it is not classified under): the code's own
 * term, marked. Not a CPV prefix of the tender, so the `cpv` filter does not see it.
 */
export const namedCodeTerm = (codeTerm: string): string => `named:${codeTerm}`

/**
 * The text a tender is found by, by field: its title; its lot names; its buyer and region; its native id and codes.
 */
export const tenderText = (record: TenderRecord) => ({
  title: record.title,
  lots: subjectOf(record) ?? record.lots.map((lot) => lot.title).join(" "),
  parties: [record.buyer ?? "", record.region ?? ""].join(" "),
  codes: [record.nativeId, ...record.cpvCodes, ...record.okpd2Codes].join(" ")
})

/**
 * The text analysis search and alerts share: a query's plan and a tender's terms, from one analyzer (the
 * `@tenders/search-text` package: stemming per language, concepts, places, codes, transliteration).
 */
export class SearchText extends Context.Service<
  SearchText,
  {
    /** The plan of a free-text query; words the index does not know are left as they are. */
    readonly queryPlan: (q: string) => QueryPlan
    /**
     * Builds the analysis now if it is not built (it is built on first use, and again after the packs changed): a
     * server calls it before it answers, so that its first search does not wait for the lexicon.
     */
    readonly prepare: () => void
    readonly documentTerms: (record: TenderRecord) => DocumentTerms
    /** The words of a tender as written (normalised), which a misspelt query word may be corrected to. */
    readonly documentWords: (record: TenderRecord) => ReadonlyArray<string>
    /**
     * The words of a plan that could be misspellings: clauses matched only by their own forms (no concept, place
     * or code), with those forms; the store says which of them it does not know (`TenderStore.spellings`).
     */
    readonly correctable: (plan: QueryPlan) => ReadonlyArray<SpellingQuestion>
    /** The plan with some words read as others (`[typed, read as]`): their clauses match as corrections. */
    readonly corrected: (plan: QueryPlan, corrections: ReadonlyMap<string, string>) => QueryPlan
    /**
     * Changes whenever the analysis or its data (packs included) change: stored terms of another version are rebuilt.
     */
    readonly version: string
    /**
     * From now on, analyse with these classification packs beside the shipped data (the store's, read by
     * `loadPacks`): `version` changes with them. Nothing changes when their digest is the one in use.
     */
    readonly usePacks: (packs: PackData) => void
    /** The digest of the packs in use (`""` for none). */
    readonly packsDigest: string
    /**
     * From now on, a query's words also name codes by these labels that sources published beside their codes
     * (`SourceLabel`, kept by the store as notices arrive). Queries only: `version` does not change, and a tender's
     * terms are never made of them (a label learned later would leave the tenders analysed before without it).
     */
    readonly useSourceLabels: (labels: ReadonlyArray<SourceLabel>) => void
    /** How many source labels are in use (the store only adds them: another count means others). */
    readonly sourceLabelCount: number
  }
>()("@tenders/core/SearchText") {}
