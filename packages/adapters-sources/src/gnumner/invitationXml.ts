import { XMLParser } from "fast-xml-parser"
import { Predicate, Result } from "effect"
import { parseXml } from "../parseXml.ts"
import { cleanText } from "./values.ts"

/** One table cell: its text and the grid columns it spans (`w:gridSpan`, `w:gridBefore` applied). */
export interface DocxCell {
  readonly text: string
  readonly gridStart: number
  readonly gridSpan: number
}

/** A table as rows of cells. */
export type DocxTable = ReadonlyArray<ReadonlyArray<DocxCell>>

type Node = Readonly<Record<string, unknown>>

const parser = new XMLParser({
  preserveOrder: true,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  /** Also decodes numeric character references (`&#160;`), which XML allows and plain `processEntities` leaves. */
  htmlEntities: true,
  trimValues: false
})

const isNode = (value: unknown): value is Node => Predicate.isObject(value) && !Array.isArray(value)

/** The element name of a preserve-order node (`#text` for text). */
const tagOf = (node: Node): string => Object.keys(node).find((key) => key !== ":@") ?? ""

const childrenOf = (node: Node): ReadonlyArray<Node> => {
  const value = node[tagOf(node)]
  return Array.isArray(value) ? value.filter(isNode) : []
}

/** Wrappers that may sit between a table and its rows, a row and its cells, a paragraph and its runs. */
const TRANSPARENT: ReadonlyArray<string> = ["sdt", "sdtContent", "customXml", "smartTag", "ins", "moveTo"]

/** Children with the given tag, looking through content controls and similar wrappers. */
const elements = (node: Node, tag: string): ReadonlyArray<Node> =>
  childrenOf(node).flatMap((child) => {
    const name = tagOf(child)
    if (name === tag) return [child]
    return TRANSPARENT.includes(name) ? elements(child, tag) : []
  })

/** The integer `w:val` of a property element (e.g. `tcPr/gridSpan`), or the fallback. */
const intProperty = (node: Node, props: string, name: string, fallback: number): number => {
  const prop = elements(node, props).flatMap((p) => elements(p, name))[0]
  const attrs = prop?.[":@"]
  const raw = isNode(attrs) ? attrs["val"] : undefined
  const parsed = Predicate.isString(raw) ? Number.parseInt(raw, 10) : Number.NaN
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback
}

/** Text of a paragraph: every `w:t` in order (runs, hyperlinks, fields), tabs and breaks as spaces. */
const paragraphText = (node: Node): string =>
  childrenOf(node)
    .map((child) => {
      const name = tagOf(child)
      if (name === "#text") return ""
      if (name === "t")
        return childrenOf(child)
          .map((t) => (Predicate.isString(t["#text"]) ? t["#text"] : ""))
          .join("")
      if (name === "tab" || name === "br" || name === "cr") return " "
      if (name === "tbl" || name === "delText" || name === "instrText") return ""
      return paragraphText(child)
    })
    .join("")

const cellText = (cell: Node): string =>
  cleanText(
    elements(cell, "p")
      .map((p) => cleanText(paragraphText(p)))
      .filter((t) => t.length > 0)
      .join(" ")
  )

const tableOf = (tbl: Node): DocxTable =>
  elements(tbl, "tr").map((tr) => {
    let column = intProperty(tr, "trPr", "gridBefore", 0)
    return elements(tr, "tc").map((tc): DocxCell => {
      const gridSpan = Math.max(1, intProperty(tc, "tcPr", "gridSpan", 1))
      const cell = { text: cellText(tc), gridStart: column, gridSpan }
      column += gridSpan
      return cell
    })
  })

/** Every `w:tbl` below a node, in document order (tables nested in cells after their parent). */
const collectTables = (nodes: ReadonlyArray<Node>, into: Array<DocxTable>): void => {
  for (const node of nodes) {
    if (tagOf(node) === "tbl") into.push(tableOf(node))
    collectTables(childrenOf(node), into)
  }
}

/** Parses `word/document.xml` into its tables; a malformed document is an error, never a throw. */
export const docxTables = (xml: string): Result.Result<ReadonlyArray<DocxTable>, string> => {
  const result = parseXml(parser, xml)
  if (Result.isFailure(result)) return Result.fail(`word/document.xml is not well-formed XML: ${result.failure}`)
  const parsed = result.success
  const roots = Array.isArray(parsed) ? parsed.filter(isNode) : []
  if (!roots.some((root) => tagOf(root) === "document"))
    return Result.fail("word/document.xml has no w:document element")
  const tables: Array<DocxTable> = []
  collectTables(roots, tables)
  return Result.succeed(tables)
}

/** The text of the cell covering a grid column of a row, or "" when none does. */
export const cellAt = (row: ReadonlyArray<DocxCell>, column: number): string =>
  row.find((c) => column >= c.gridStart && column < c.gridStart + c.gridSpan)?.text ?? ""
