import type { TenderRecord } from "@tenders/core"
import { Result } from "effect"
import { readZip } from "../eaeu/feedZip.ts"
import { cellAt, docxTables } from "./invitationXml.ts"
import type { DocxCell, DocxTable } from "./invitationXml.ts"
import { normalizeAmount } from "./values.ts"

/** A lot of the invitation's lot table (`RecordLot` of core). */
export type RecordLot = TenderRecord["lots"][number]

/**
 * Header words of the invitation's lot table (Armenian / Russian / English), matched case-insensitively as
 * substrings; words of up to three letters (`N`, `№`, `лот`) only as whole words.
 */
export const LOT_TABLE_HEADERS = {
  lotNumber: ["չափաբաժնի համար", "չափաբաժին", "չափաբաժ", "n", "nº", "n°", "№", "номер лота", "лот", "lot"],
  name: ["անվանում", "наименование", "name", "description"],
  cpv: ["cpv", "գմա", "միջանցիկ ծածկագիր"],
  price: ["նախահաշվային գին", "գին", "արժեք", "цена", "стоимость", "price", "value"],
  /** Among several price columns: prefer the lot total, avoid the unit price. */
  totalPrice: ["ընդհանուր", "общая", "итого", "total"],
  unitPrice: ["միավորի", "միավոր", "за единицу", "единиц", "unit"],
  /** A row starting with one of these (in the number or name cell) is a total, not a lot. */
  totalRow: ["ընդամենը", "итого", "всего", "total"]
} as const

const lower = (text: string): string => text.toLocaleLowerCase("hy").normalize("NFC")

const matchesWord = (text: string, word: string): boolean => {
  const t = lower(text)
  if (word.length > 3) return t.includes(word)
  const at = t.indexOf(word)
  if (at < 0) return false
  const before = at === 0 ? "" : t.charAt(at - 1)
  const after = t.charAt(at + word.length)
  return !/\p{L}/u.test(before) && !/\p{L}/u.test(after)
}

const matchesAny = (text: string, words: ReadonlyArray<string>): boolean => words.some((w) => matchesWord(text, w))

interface Columns {
  readonly lotNumber: number
  readonly name: number
  readonly cpv: number | null
  readonly price: number | null
}

const pick = (
  cells: ReadonlyArray<DocxCell>,
  taken: ReadonlyArray<DocxCell>,
  words: ReadonlyArray<string>
): ReadonlyArray<DocxCell> => cells.filter((c) => !taken.includes(c) && c.text.length > 0 && matchesAny(c.text, words))

const pricePreference = (cell: DocxCell): number =>
  matchesAny(cell.text, LOT_TABLE_HEADERS.totalPrice) ? 0 : matchesAny(cell.text, LOT_TABLE_HEADERS.unitPrice) ? 2 : 1

/** The lot table columns of a header row, or null when it lacks a lot-number or a name column. */
const headerColumns = (row: ReadonlyArray<DocxCell>): Columns | null => {
  const names = pick(row, [], LOT_TABLE_HEADERS.name)
  const name = names.find((c) => !matchesAny(c.text, LOT_TABLE_HEADERS.cpv)) ?? names[0]
  if (name === undefined) return null
  const lotNumber = pick(row, [name], LOT_TABLE_HEADERS.lotNumber)[0]
  if (lotNumber === undefined) return null
  const cpv = pick(row, [name, lotNumber], LOT_TABLE_HEADERS.cpv)[0]
  const prices = pick(row, [name, lotNumber, ...(cpv === undefined ? [] : [cpv])], LOT_TABLE_HEADERS.price)
  const price = prices.toSorted((a, b) => pricePreference(a) - pricePreference(b))[0]
  return {
    lotNumber: lotNumber.gridStart,
    name: name.gridStart,
    cpv: cpv?.gridStart ?? null,
    price: price?.gridStart ?? null
  }
}

/** 8-digit CPV codes of a cell (`30192700/1`, `30192700-8`), de-duplicated, in order. */
const cpvCodesOf = (text: string): ReadonlyArray<string> =>
  [...new Set(Array.from(text.matchAll(/(?<!\d)(\d{8})(?!\d)/gu), (m) => m[1] ?? ""))].filter((c) => c.length === 8)

/** The first amount of a cell (`1 234 567,89`, `1,234,567.89 ՀՀ դրամ`) as a decimal string, or null. */
const priceOf = (text: string): string | null => {
  const amount = /-?\d(?:[\d\s\u00A0\u2009\u202F.,'’]*\d)?/u.exec(text)?.[0]
  return amount === undefined ? null : normalizeAmount(amount)
}

const lotOf = (row: ReadonlyArray<DocxCell>, columns: Columns, headerName: string): RecordLot | null => {
  const title = cellAt(row, columns.name)
  if (title.length === 0 || title === headerName || /^[\d\s.,]*$/u.test(title)) return null
  const number = cellAt(row, columns.lotNumber)
  if ([number, title, row[0]?.text ?? ""].some((t) => LOT_TABLE_HEADERS.totalRow.some((w) => lower(t).startsWith(w))))
    return null
  const budget = columns.price === null ? null : priceOf(cellAt(row, columns.price))
  const cpvCodes = columns.cpv === null ? [] : cpvCodesOf(cellAt(row, columns.cpv))
  return { title, budget, currency: budget === null ? null : "AMD", cpvCodes }
}

/** The lots of a table whose header is one of its first three rows; null when it is not a lot table. */
const lotsOfTable = (table: DocxTable): ReadonlyArray<RecordLot> | null => {
  for (let h = 0; h < Math.min(3, table.length); h++) {
    const header = table[h] ?? []
    const columns = headerColumns(header)
    if (columns === null) continue
    const headerName = cellAt(header, columns.name)
    return table
      .slice(h + 1)
      .map((row) => lotOf(row, columns, headerName))
      .filter((lot) => lot !== null)
  }
  return null
}

const utf8 = new TextDecoder("utf-8")

/** Reads the lots (name, estimated price in AMD, CPV) from the lot table of an invitation DOCX; never throws. */
export const parseInvitationDocx = (bytes: Uint8Array): Result.Result<ReadonlyArray<RecordLot>, string> => {
  const entries = readZip(bytes)
  if (Result.isFailure(entries)) return Result.fail(`not a DOCX file: ${entries.failure}`)
  const document = entries.success.find((e) => e.name === "word/document.xml")
  if (document === undefined) return Result.fail("not a DOCX file: the archive has no word/document.xml")
  const tables = docxTables(utf8.decode(document.data))
  if (Result.isFailure(tables)) return Result.fail(tables.failure)
  let emptyTable = false
  for (const table of tables.success) {
    const lots = lotsOfTable(table)
    if (lots !== null && lots.length > 0) return Result.succeed(lots)
    emptyTable ||= lots !== null
  }
  return Result.fail(
    emptyTable
      ? "the invitation's lot table has no lot rows"
      : `no lot table (a table with lot-number and name columns) among the document's ${tables.success.length} tables`
  )
}
