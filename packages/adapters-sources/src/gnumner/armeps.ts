import type { ParseResult } from "@tenders/core"
import type { HTMLElement } from "node-html-parser"
import { displayCode } from "./code.ts"
import { lines, parseHtml } from "./html.ts"
import { collect, finishDraft } from "./notice.ts"
import type { SectionMeaning } from "./notice.ts"
import { absoluteUrl, armepsTime, cpvCodes, cpvNames, nonEmpty, normalizeAmount, normalizeLabel } from "./values.ts"

/** `dt` label (normalised) -> its `dd` element, first occurrence wins. */
const gridCells = (root: HTMLElement): ReadonlyMap<string, HTMLElement> => {
  const cells = new Map<string, HTMLElement>()
  for (const grid of root.querySelectorAll("dl.Grid")) {
    let label: string | null = null
    for (const child of grid.children) {
      const tag = child.tagName.toLowerCase()
      if (tag === "dt") label = normalizeLabel(child.text)
      else if (tag === "dd" && label !== null) {
        if (!cells.has(label)) cells.set(label, child)
        label = null
      }
    }
  }
  return cells
}

/**
 * Rows of the documents table `#T02` whose "Addendum ID" is filled (not `N/A`) mean the invitation was amended
 * [inferred by the field guide]; the first column is the addendum id.
 */
const hasAddenda = (root: HTMLElement): boolean =>
  root.querySelectorAll("#T02 tbody tr").some((row) => {
    const id = nonEmpty(row.querySelector("td")?.text)
    return id !== null && !/^(n\/a|-|—)$/iu.test(id)
  })

/** Parses an ARMEPS listContractDocuments page into a notice (richer card: buyer, CPV, lots count, value). */
export const parseArmepsDetail = (html: string, options: { readonly url: string }): ParseResult => {
  const root = parseHtml(html)
  if (root === null) return { notices: [], rejected: [] }
  const cells = gridCells(root)
  if (cells.size === 0) return { notices: [], rejected: [] }
  const text = (label: string): string | null => nonEmpty(cells.get(label)?.text)
  const code = text("cft id")
  const meaning: SectionMeaning = hasAddenda(root)
    ? { kind: "amendment", reason: null }
    : { kind: "original", reason: null }
  const cpvCell = cells.get("cpv codes")
  const url = absoluteUrl(options.url, options.url)
  // `Number Of Lots` has no home in TenderRecord (no lotsCount; `lots` stays [] because lot titles and prices only
  // live in the invitation / tender-structure XML), so it is read by nothing here.
  return collect([
    finishDraft(
      {
        meaning,
        code: code === null ? null : displayCode(code),
        // Field guide 2.4 / expected-cards.json: English title first, then the Armenian one.
        title: text("title (en)") ?? text("title") ?? text("title (ru)"),
        buyer: text("name of contracting authority"),
        budget: normalizeAmount(text("estimated value (amd)")),
        deadline: armepsTime(text("time-limit for receipt of tenders or requests to participate")),
        publishedAt: armepsTime(text("date of publication/invitation")),
        url,
        cpvCodes: cpvCell === undefined ? [] : cpvCodes(lines(cpvCell)),
        sourceLabels: cpvCell === undefined ? [] : cpvNames(lines(cpvCell)),
        // The document downloads are JavaScript (`downloadDocForAnonymous(id)`), so the page itself is the link.
        docsUrl: url === null ? [] : [url],
        regionHints: [text("title"), text("title (ru)")]
      },
      code === null ? options.url : `${options.url} [${code}]`
    )
  ])
}
