// The lexicon's files (`data/`, described in docs/search-data.md): read as text (the analysis version hashes them),
// then decoded line by line by the schemas of LexiconData.ts and Labels.ts. A line that is not what its schema says
// fails the load, naming its file and line: the data is ours, and a wrong line would otherwise be read as nothing.

import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Result, Schema } from "effect"
import { CpvEntry, indexLabels, LabelMatch, OwnRussianLabel } from "./Labels.ts"
import {
  type GlossaryEntry,
  type LexiconData,
  type ManualCrosswalk,
  ManualLink,
  PlaceEntry,
  RelatedDivisions
} from "./LexiconData.ts"

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

/** The text of each of the lexicon's files, by role. */
export type LexiconFiles = Record<keyof typeof lexiconFiles, string>

/**
 * A language as a key of a data file: its ISO 639-1 code, two lower-case letters. Not `id`, a glossary line's own
 * key; other keys (`_source` of the stop words) are no language's.
 */
const Language = Schema.String.check(Schema.isPattern(/^(?!id$)[a-z]{2}$/u))

/** A glossary line as written: the entry's own keys, and its terms under their languages' keys. */
const GlossaryLine = Schema.StructWithRest(
  Schema.Struct({
    id: Schema.String,
    generic: Schema.optionalKey(Schema.Boolean),
    broader: Schema.optionalKey(Schema.Array(Schema.String))
  }),
  [Schema.Record(Language, Schema.Array(Schema.String))]
)

const glossaryEntry = ({ id, generic, broader, ...terms }: typeof GlossaryLine.Type): GlossaryEntry => ({
  id,
  ...(generic === undefined ? {} : { generic }),
  ...(broader === undefined ? {} : { broader }),
  terms
})

/** A line of `cpv.jsonl` as the analysis reads it: the code and its English label (the others are the generator's). */
const CpvEnglish = Schema.Struct({
  code: Schema.String,
  labels: Schema.Struct({ en: Schema.optionalKey(Schema.String) })
})

/** Our Armenian labels of the CPV down to the class: several a code, as Armenian notices word them. */
export const CpvArmenian = Schema.Struct({ code: Schema.String, hy: Schema.Array(Schema.String) })
export type CpvArmenian = typeof CpvArmenian.Type

/** The stop words of each language (`stopwords.json`). */
const StopWords = Schema.Record(Language, Schema.Array(Schema.String))

/** The stems a compound may be split into, by language (`compound-parts.json`). */
const CompoundParts = Schema.Record(Schema.String, Schema.Array(Schema.String))

/**
 * A JSON text decoded by a schema; what it is not fails the load, named by `where` (a file, and its line). `kept`:
 * a value the schema accepts as it is parsed is kept, not copied, for a file whose lines hold their schema's keys
 * only and nothing to transform: the label index's 230,552 decoded copies held 43 MB more heap than its parsed lines
 * (106 against 63 MB), and a larger heap made the embedded store's searches pause longer in its collections.
 */
const jsonReader = <A>(
  schema: Schema.ConstraintDecoder<A>,
  kept = false
): ((text: string, where: () => string) => A) => {
  const decode = Schema.decodeUnknownResult(schema)
  const accepts = Schema.is(schema)
  return (text, where) => {
    const parsed = Result.try((): unknown => JSON.parse(text))
    if (Result.isFailure(parsed)) throw new Error(`${where()}: ${String(parsed.failure)}`)
    if (kept && accepts(parsed.success)) return parsed.success
    const decoded = decode(parsed.success)
    if (Result.isFailure(decoded)) throw new Error(`${where()}: ${decoded.failure.message}`)
    return decoded.success
  }
}

/** A JSON Lines text (`file`, for messages) decoded line by line; blank lines are skipped. */
const decodeLines = <A>(
  schema: Schema.ConstraintDecoder<A>,
  file: string,
  text: string,
  kept = false
): ReadonlyArray<A> => {
  const read = jsonReader(schema, kept)
  const values: Array<A> = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ""
    if (line.trim() !== "") values.push(read(line, () => `${file}, line ${i + 1}`))
  }
  return values
}

const readLines = <A>(schema: Schema.ConstraintDecoder<A>, directory: string, file: string): ReadonlyArray<A> =>
  decodeLines(schema, file, readFileSync(join(directory, file), "utf8"))

/** Reads the CPV codes with their labels in the 24 EU languages. */
export const readCpv = (directory: string = dataDirectory): ReadonlyArray<CpvEntry> =>
  readLines(CpvEntry, directory, lexiconFiles.cpv)

/** Reads our Armenian CPV labels (`cpv-hy.jsonl`, docs/search-data.md). */
export const readCpvArmenian = (directory: string = dataDirectory): ReadonlyArray<CpvArmenian> =>
  readLines(CpvArmenian, directory, join("classifications", "cpv-hy.jsonl"))

/** The stop words of every language (a query's language is not known, so all lists apply). */
export const readStopWords = (directory: string = dataDirectory): ReadonlySet<string> => {
  const file = "stopwords.json"
  const lists = jsonReader(StopWords)(readFileSync(join(directory, file), "utf8"), () => file)
  return new Set(Object.values(lists).flat())
}

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
export const readLexiconFiles = (directory: string = dataDirectory): LexiconFiles => {
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

/** Decodes the lexicon's files; a line that is not what its file holds fails, naming the file and the line. */
export const parseLexiconData = (files: LexiconFiles): LexiconData => {
  const lines = <A>(schema: Schema.ConstraintDecoder<A>, role: keyof typeof lexiconFiles, kept = false) =>
    decodeLines(schema, lexiconFiles[role], files[role], kept)
  const manual: ManualCrosswalk = {
    links: lines(ManualLink, "crosswalk"),
    related: jsonReader(RelatedDivisions)(files.crosswalkRelated, () => lexiconFiles.crosswalkRelated)
  }
  const compoundParts = jsonReader(CompoundParts)(files.compoundParts, () => lexiconFiles.compoundParts)
  return {
    glossary: lines(GlossaryLine, "glossary").map(glossaryEntry),
    places: lines(PlaceEntry, "places"),
    labels: lines(LabelMatch, "labels", true),
    crosswalk: manual.links,
    manualCrosswalk: manual,
    cpvRussian: lines(OwnRussianLabel, "cpvRussian"),
    cpvEnglish: lines(CpvEnglish, "cpv").flatMap(({ code, labels }) =>
      labels.en === undefined ? [] : [{ code, label: labels.en }]
    ),
    compoundParts: new Map(Object.entries(compoundParts).map(([language, stems]) => [language, new Set(stems)]))
  }
}

/** Reads the shipped lexicon data. */
export const readLexiconData = (directory: string = dataDirectory): LexiconData =>
  parseLexiconData(readLexiconFiles(directory))
