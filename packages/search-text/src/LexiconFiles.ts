// The lexicon's files (`data/`, described in docs/search-data.md): hashed as read (the analysis version), then decoded
// line by line, a chunk of the file at a time (FileLines.ts), by the schemas of LexiconData.ts and Labels.ts. A line
// that is not what its schema says fails the load, naming its file and line: the data is ours, and a wrong line would
// otherwise be read as nothing.

import type { Hash } from "node:crypto"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Result, Schema } from "effect"
import { fileLines, hashFile } from "./FileLines.ts"
import { CpvEntry, indexLabels, LabelMatch, OwnRussianLabel } from "./Labels.ts"
import {
  type GlossaryEntry,
  type LexiconData,
  type ManualCrosswalk,
  ManualLink,
  PlaceEntry,
  RelatedDivisions
} from "./LexiconData.ts"

/**
 * The data files shipped with this package (`data/`, described in docs/search-data.md), found through the package's
 * own exports: the same directory from these sources and from the server's bundle (`packages/cli/dist`), which is
 * elsewhere than this file.
 */
export const dataDirectory = dirname(fileURLToPath(import.meta.resolve("@tenders/search-text/data/stopwords.json")))

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

/** Each of the lexicon's files on disk, by role. */
export type LexiconOnDisk = Record<keyof typeof lexiconFiles, FileOnDisk>

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

/** A file on disk, read a chunk at a time (`fileLines`): no string of the whole file is made. */
interface FileOnDisk {
  readonly path: string
}

/** A file's content: its text, or the file itself. */
type FileContent = string | FileOnDisk

/** The lines of a file's content, from the first, each with its number (from 1). */
function* contentLines(content: FileContent): Generator<readonly [line: string, number: number]> {
  if (typeof content !== "string") {
    let number = 1
    for (const line of fileLines(content.path)) yield [line, number++]
    return
  }
  for (let from = 0, number = 1; from < content.length; number++) {
    const end = content.indexOf("\n", from)
    const to = end < 0 ? content.length : end
    yield [content.slice(from, to), number]
    from = to + 1
  }
}

/**
 * A JSON Lines file (`file`, for messages) decoded line by line, as it is iterated and each time anew: the values are
 * not kept by it (the label index's lines, packed as they are read). Blank lines are skipped.
 */
const linesOf = <A>(
  schema: Schema.ConstraintDecoder<A>,
  file: string,
  content: FileContent,
  kept = false
): Iterable<A> => ({
  *[Symbol.iterator]() {
    const read = jsonReader(schema, kept)
    for (const [line, number] of contentLines(content))
      if (line.trim() !== "") yield read(line, () => `${file}, line ${number}`)
  }
})

/** A JSON Lines file (`file`, for messages) decoded line by line; blank lines are skipped. */
const decodeLines = <A>(
  schema: Schema.ConstraintDecoder<A>,
  file: string,
  content: FileContent,
  kept = false
): ReadonlyArray<A> => [...linesOf(schema, file, content, kept)]

const readLines = <A>(schema: Schema.ConstraintDecoder<A>, directory: string, file: string): ReadonlyArray<A> =>
  decodeLines(schema, file, { path: join(directory, file) })

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

/** The lexicon's files on disk, by role (read a chunk at a time as they are decoded). */
export const lexiconOnDisk = (directory: string = dataDirectory): LexiconOnDisk => {
  const file = (role: keyof typeof lexiconFiles) => ({ path: join(directory, lexiconFiles[role]) })
  return {
    glossary: file("glossary"),
    places: file("places"),
    labels: file("labels"),
    crosswalk: file("crosswalk"),
    crosswalkRelated: file("crosswalkRelated"),
    cpvRussian: file("cpvRussian"),
    cpv: file("cpv"),
    compoundParts: file("compoundParts")
  }
}

/** Adds the bytes of the lexicon's files to a hash, in the order of their roles (what the analysis version hashes). */
export const hashLexicon = (hash: Hash, directory: string = dataDirectory): Hash => {
  for (const { path } of Object.values(lexiconOnDisk(directory))) hashFile(hash, path)
  return hash
}

/** The text of the lexicon's files. */
export const readLexiconFiles = (directory: string = dataDirectory): LexiconFiles => {
  const text = (role: keyof typeof lexiconFiles) => readFileSync(join(directory, lexiconFiles[role]), "utf8")
  return {
    glossary: text("glossary"),
    places: text("places"),
    labels: text("labels"),
    crosswalk: text("crosswalk"),
    crosswalkRelated: text("crosswalkRelated"),
    cpvRussian: text("cpvRussian"),
    cpv: text("cpv"),
    compoundParts: text("compoundParts")
  }
}

/**
 * Decodes the lexicon's files, as text or on disk; a line that is not what its file holds fails, naming the file and
 * the line (a label's line, when the lexicon reads the labels: they are decoded as they are read).
 */
export const parseLexiconData = (files: LexiconFiles | LexiconOnDisk): LexiconData => {
  const json = (role: "crosswalkRelated" | "compoundParts") => {
    const content = files[role]
    return typeof content === "string" ? content : readFileSync(content.path, "utf8")
  }
  const lines = <A>(schema: Schema.ConstraintDecoder<A>, role: keyof typeof lexiconFiles, kept = false) =>
    decodeLines(schema, lexiconFiles[role], files[role], kept)
  const manual: ManualCrosswalk = {
    links: lines(ManualLink, "crosswalk"),
    related: jsonReader(RelatedDivisions)(json("crosswalkRelated"), () => lexiconFiles.crosswalkRelated)
  }
  const compoundParts = jsonReader(CompoundParts)(json("compoundParts"), () => lexiconFiles.compoundParts)
  return {
    glossary: lines(GlossaryLine, "glossary").map(glossaryEntry),
    places: lines(PlaceEntry, "places"),
    labels: linesOf(LabelMatch, lexiconFiles.labels, files.labels, true),
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
