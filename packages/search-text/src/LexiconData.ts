// The data the analysis reads, as the lexicon is built from it: the glossary, the places, the CPV labels as the
// query side matches them, the CPV ↔ OKPD2 crosswalk, and what the classification packs add. The files hold it
// (LexiconFiles.ts); a test may give its own.

import { Schema } from "effect"
import type { LabelMatch, OwnRussianLabel } from "./Labels.ts"

/** A link of the CPV ↔ OKPD2 crosswalk: the CPV branch (a code without its trailing zeros) an OKPD2 branch lies in. */
export const CrosswalkLink = Schema.Struct({ okpd2: Schema.String, cpv: Schema.String })
export type CrosswalkLink = typeof CrosswalkLink.Type

/**
 * How a hand-made link's two branches relate: about the same products (`exact`), the OKPD2 branch inside the CPV one
 * (`okpd2-narrower`), the reverse (`cpv-narrower`), or most of the OKPD2 branch inside the CPV one (`partial`).
 */
export const LinkPrecision = Schema.Literals(["exact", "okpd2-narrower", "cpv-narrower", "partial"])
export type LinkPrecision = typeof LinkPrecision.Type

/** A link of the hand-made crosswalk (`cpv-okpd2.jsonl`, written from the titles and notes of both classifications). */
export const ManualLink = Schema.Struct({ ...CrosswalkLink.fields, precision: LinkPrecision })
export type ManualLink = typeof ManualLink.Type

/** The pairs of divisions (OKPD2, CPV) a label match may also join (`cpv-okpd2-related.json`). */
export const RelatedDivisions = Schema.Array(Schema.Tuple([Schema.String, Schema.String]))

/** The hand-made crosswalk: its links, and the pairs of divisions (OKPD2, CPV) a label match may also join. */
export interface ManualCrosswalk {
  readonly links: ReadonlyArray<ManualLink>
  readonly related: ReadonlyArray<readonly [okpd2: string, cpv: string]>
}

/**
 * A glossary concept: its terms by language (ISO 639-1; dictionary forms), whether it is a generic procurement word
 * ("supply"), and the concepts it is a kind of (`broader`: every laptop is a computer, every diesel fuel a fuel).
 */
export interface GlossaryEntry {
  readonly id: string
  readonly generic?: boolean
  readonly broader?: ReadonlyArray<string>
  readonly terms: Readonly<Record<string, ReadonlyArray<string>>>
}

/** A place with its names per language and the NUTS codes of its territory. */
export const PlaceEntry = Schema.Struct({
  id: Schema.String,
  names: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  nuts: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The place (a region of the file) this one lies in: a notice naming Meghri is in Syunik. */
  within: Schema.optionalKey(Schema.String)
})
export type PlaceEntry = typeof PlaceEntry.Type

/** A CPV code (8 digits, no check digit) and its English label. */
export interface EnglishLabel {
  readonly code: string
  readonly label: string
}

/**
 * The data the analysis reads; CPV labels as `indexLabels` makes them (shipped precomputed: stemming them takes
 * seconds).
 */
export interface LexiconData {
  readonly glossary: ReadonlyArray<GlossaryEntry>
  readonly places: ReadonlyArray<PlaceEntry>
  /** The labels, read once in order by the lexicon (the files' are decoded as they are read: LexiconFiles.ts). */
  readonly labels: Iterable<LabelMatch>
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
