import type { ClassificationPack, PackCode } from "@tenders/core"
import { Result } from "effect"

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

/**
 * The OKPD2 pack from its files: one table of the codes in force (`code<TAB>label`), and any number of older
 * editions as CSV (`Name;…;Kod;…`) whose codes no longer in force are kept as withdrawn (older notices carry them).
 * Each file's kind is told by its content.
 */
export const okpd2Pack = (files: ReadonlyArray<PackFile>): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const tables = files.filter((file) => !/^\uFEFF?"?Name"?;/u.test(file.text))
  const editions = files.filter((file) => /^\uFEFF?"?Name"?;/u.test(file.text))
  if (tables.length !== 1) {
    return refused(
      files.map((file) => file.name).join(", "),
      0,
      `give one table of the codes in force (code<TAB>label), not ${tables.length}`
    )
  }
  const [table] = tables
  if (table === undefined) return refused("", 0, "no table of the codes in force")
  const inForce = okpd2Table(table)
  if (Result.isFailure(inForce)) return inForce
  const codes = new Map(inForce.success.map((code) => [code.code, code]))
  for (const edition of editions) {
    const older = okpd2Edition(edition)
    if (Result.isFailure(older)) return older
    for (const code of older.success) if (!codes.has(code.code)) codes.set(code.code, code)
  }
  return Result.succeed([...codes.values()])
}

/**
 * The Russian CPV labels from a JSON object `{"<8 digits>-<check>": "label"}` (as Prozorro's `cpv_ru.json`). A label
 * that is no Russian text (the code itself, or no Cyrillic letter) is left out.
 */
export const cpvRuPack = (file: PackFile): Result.Result<ReadonlyArray<PackCode>, PackFileProblem> => {
  const parsed = Result.try(() => JSON.parse(file.text.replace(/^\uFEFF/u, "")) as unknown)
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
