// The classification packs' files as operators import them (OKPD2 as a table, as EIS's XML or as older editions'
// CSV; the Russian CPV labels as JSON), read into a pack's codes; a file that is not what it should be is refused,
// naming the file, the line and why.

import type { ClassificationPack, PackCode } from "@tenders/core"
import { Predicate, Result } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"

/** Why a pack file was refused: its name, the line (from 1, 0 for the whole file) and the reason. */
export interface PackFileProblem {
  readonly file: string
  readonly line: number
  readonly reason: string
}

/** A pack file as given: its name (for messages) and its text. */
export interface PackFile {
  readonly name: string
  readonly text: string
}

/** OKPD2 codes as OKPD2 writes them: `42`, `42.1`, `42.11`, `42.11.1`, `42.11.10`, `42.11.10.110`. */
export const okpd2CodePattern = /^\d\d(?:\.\d(?:\d(?:\.\d(?:\d(?:\.\d{3})?)?)?)?)?$/u

/** One line of a label: control characters as spaces, single spaces, no quotes around it. */
const cleanLabel = (text: string): string =>
  text
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/^"\s*(.*?)\s*"$/u, "$1")
    .trim()

const refused = (file: string, line: number, reason: string): Result.Result<never, PackFileProblem> =>
  Result.fail({ file, line, reason })

const lines = (text: string) => text.replace(/^\uFEFF/u, "").split(/\r?\n/u)

/** OKPD2 in force as `code<TAB>label` lines (as `okpd_table.tsv`); a lettered section line is skipped. */
const okpd2Table = (file: PackFile): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const codes = new Map<string, PackCode>()
  const all = lines(file.text)
  for (const [i, line] of all.entries()) {
    if (line.trim() === "") continue
    const tab = line.indexOf("\t")
    if (tab < 0) return refused(file.name, i + 1, "expected a code, a tab and a label")
    const code = line.slice(0, tab).trim()
    if (/^[A-Z]$/u.test(code)) continue
    if (!okpd2CodePattern.test(code)) return refused(file.name, i + 1, `"${code.slice(0, 40)}" is not an OKPD2 code`)
    if (codes.has(code)) return refused(file.name, i + 1, `${code} is given twice`)
    const label = cleanLabel(line.slice(tab + 1))
    if (label === "") return refused(file.name, i + 1, `${code} has no label`)
    codes.set(code, { code, label, withdrawn: false })
  }
  return codes.size === 0 ? refused(file.name, 0, "no OKPD2 code in the file") : Result.succeed([...codes.values()])
}

/** Semicolon-separated CSV with double-quoted fields (doubled quotes inside), as the Moscow open-data sets write it. */
const csvRows = (text: string): ReadonlyArray<ReadonlyArray<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? ""
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ";") {
      row.push(field)
      field = ""
    } else if (c === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else if (c !== "\r") field += c
  }
  if (field !== "" || row.length > 0) rows.push([...row, field])
  return rows
}

/** An older OKPD2 edition as the Moscow open-data CSV (columns `Name` and `Kod`): the codes it may withdraw. */
const okpd2Edition = (file: PackFile): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const [header = [], ...records] = csvRows(file.text.replace(/^\uFEFF/u, ""))
  const name = header.indexOf("Name")
  const kod = header.indexOf("Kod")
  if (name < 0 || kod < 0) return refused(file.name, 1, "expected the columns Name and Kod")
  const codes: Array<PackCode> = []
  for (const [i, record] of records.entries()) {
    if (record.length === 1 && (record[0] ?? "").trim() === "") continue
    const code = (record[kod] ?? "").trim()
    if (!okpd2CodePattern.test(code)) continue
    const label = cleanLabel(record[name] ?? "")
    if (label === "") return refused(file.name, i + 2, `${code} has no label`)
    codes.push({ code, label, withdrawn: true })
  }
  return Result.succeed(codes)
}

/** Elements by their local names, texts as written (a code such as `21.20` is no number). */
const xmlParser = new XMLParser({ removeNSPrefix: true, parseTagValue: false })

/** The elements of a parsed XML tree with the given name, in document order, however deep. */
const elementsNamed = (node: unknown, name: string): ReadonlyArray<Record<string, unknown>> => {
  if (Array.isArray(node)) return node.flatMap((item) => elementsNamed(item, name))
  if (!Predicate.isObject(node)) return []
  return Object.entries(node).flatMap(([key, value]) =>
    key === name ? (Array.isArray(value) ? value : [value]).filter(Predicate.isObject) : elementsNamed(value, name)
  )
}

/** The text of an element's child, or "" (an element holding markup has none). */
const textOf = (element: Record<string, unknown>, child: string): string => {
  const value = element[child]
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : ""
}

/** The line (from 1) where a text first holds an element's text `>value<`, for messages; 0 when not found. */
const lineOfValue = (text: string, value: string): number => {
  const at = text.indexOf(`>${value}<`)
  return at < 0 ? 0 : text.slice(0, at).split("\n").length
}

/**
 * OKPD2 as the EIS reference data publishes it (`nsiOKPD2`, the 44-FZ export: `export/nsiOKPD2List/nsiOKPD2`, each
 * with `code`, `name` and `actual`, namespaces as they come): the codes `actual` is not `false` for are in force, the
 * others withdrawn, every version of an item as given (`addCode` keeps the one in force); lettered sections are
 * skipped.
 */
const okpd2Reference = (file: PackFile): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const text = file.text.replace(/^\uFEFF/u, "")
  const valid = XMLValidator.validate(text)
  if (valid !== true) return refused(file.name, valid.err.line, `malformed XML: ${valid.err.msg}`)
  const parsed = Result.try((): unknown => xmlParser.parse(text))
  if (Result.isFailure(parsed)) return refused(file.name, 0, "malformed XML")
  const items = elementsNamed(parsed.success, "nsiOKPD2")
  if (items.length === 0) return refused(file.name, 0, "no nsiOKPD2 element: not the EIS reference data of OKPD2")
  const codes: Array<PackCode> = []
  for (const item of items) {
    const code = textOf(item, "code").trim()
    if (/^[A-Z]$/u.test(code)) continue
    if (!okpd2CodePattern.test(code)) {
      return refused(file.name, lineOfValue(text, code), `"${code.slice(0, 40)}" is not an OKPD2 code`)
    }
    const label = cleanLabel(textOf(item, "name"))
    if (label === "") return refused(file.name, lineOfValue(text, code), `${code} has no name`)
    codes.push({ code, label, withdrawn: textOf(item, "actual").trim() === "false" })
  }
  return codes.some((code) => !code.withdrawn)
    ? Result.succeed(codes)
    : refused(file.name, 0, "no OKPD2 code in force in the file")
}

/**
 * Adds a code to a pack's codes unless it is there already; a code in force takes the place of a withdrawn one (an
 * item's older version in EIS's data, an older edition's code).
 */
const addCode = (codes: Map<string, PackCode>, code: PackCode) => {
  const before = codes.get(code.code)
  if (before === undefined || (before.withdrawn && !code.withdrawn)) codes.set(code.code, code)
}

/** What an OKPD2 file is, told by how it starts: EIS's XML reference data, an older edition's CSV, or the table. */
const okpd2FileKind = (file: PackFile): "reference" | "edition" | "table" => {
  const start = file.text
    .slice(0, 64)
    .replace(/^\uFEFF/u, "")
    .trimStart()
  return start.startsWith("<") ? "reference" : /^"?Name"?;/u.test(start) ? "edition" : "table"
}

/**
 * The OKPD2 pack from its files: the codes in force from one table (`code<TAB>label`) or from EIS's reference data
 * (`nsiOKPD2` XML, one file or the several of one export, which also gives the codes withdrawn), and any number of
 * older editions as CSV (`Name;…;Kod;…`) whose codes no longer in force are kept as withdrawn (older notices carry
 * them). Each file's kind is told by its content.
 */
export const okpd2Pack = (files: ReadonlyArray<PackFile>): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const kinds = files.map((file) => [okpd2FileKind(file), file] as const)
  const ofKind = (kind: ReturnType<typeof okpd2FileKind>) => kinds.flatMap(([k, file]) => (k === kind ? [file] : []))
  const [tables, references, editions] = [ofKind("table"), ofKind("reference"), ofKind("edition")]
  const [table] = tables
  if (!(tables.length === 1 && references.length === 0) && !(tables.length === 0 && references.length > 0)) {
    return refused(
      files.map((file) => file.name).join(", "),
      0,
      "give one table of the codes in force (code<TAB>label) or the EIS reference data (nsiOKPD2 XML), not " +
        `${tables.length} table(s) and ${references.length} XML file(s)`
    )
  }
  const codes = new Map<string, PackCode>()
  for (const source of table === undefined ? references : [table]) {
    const read = table === undefined ? okpd2Reference(source) : okpd2Table(source)
    if (Result.isFailure(read)) return read
    for (const code of read.success) addCode(codes, code)
  }
  for (const edition of editions) {
    const older = okpd2Edition(edition)
    if (Result.isFailure(older)) return older
    for (const code of older.success) addCode(codes, code)
  }
  return Result.succeed([...codes.values()])
}

/**
 * The Russian CPV labels from a JSON object `{"<8 digits>-<check>": "label"}` (as Prozorro's `cpv_ru.json`). A label
 * that is no Russian text (the code itself, or no Cyrillic letter) is left out.
 */
export const cpvRuPack = (file: PackFile): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const parsed = Result.try((): unknown => JSON.parse(file.text.replace(/^\uFEFF/u, "")))
  if (Result.isFailure(parsed)) return refused(file.name, 0, "not JSON")
  const object = parsed.success
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    return refused(file.name, 0, "expected one JSON object of code: label")
  }
  const codes: Array<PackCode> = []
  const seen = new Set<string>()
  for (const [key, value] of Object.entries(object)) {
    const line = () => lineOf(file.text, key)
    const code = /^(\d{8})-\d$/u.exec(key)?.[1]
    if (code === undefined) {
      return refused(file.name, line(), `"${key.slice(0, 40)}" is not a CPV code with its check digit`)
    }
    if (typeof value !== "string") return refused(file.name, line(), `the label of ${key} is not text`)
    if (seen.has(code)) return refused(file.name, line(), `${code} is given twice`)
    seen.add(code)
    const label = cleanLabel(value)
    if (/\p{Script=Cyrillic}/u.test(label)) codes.push({ code, label, withdrawn: false })
  }
  return codes.length === 0 ? refused(file.name, 0, "no Russian CPV label in the file") : Result.succeed(codes)
}

/** The line (from 1) of a JSON key in a text, for messages. */
const lineOf = (text: string, key: string): number => {
  const at = text.indexOf(JSON.stringify(key))
  return at < 0 ? 0 : text.slice(0, at).split("\n").length
}

/** A pack from its files, by the pack's name. */
export const parsePack = (
  pack: ClassificationPack,
  files: ReadonlyArray<PackFile>
): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  if (pack === "okpd2") return okpd2Pack(files)
  const [file, ...more] = files
  if (file === undefined || more.length > 0) return refused(files.map((f) => f.name).join(", "), 0, "give one file")
  return cpvRuPack(file)
}
