import type { ParseResult } from "@tenders/core"
import type { HTMLElement } from "node-html-parser"
import { splitBracketedCode } from "./code.ts"
import { parseHtml } from "./html.ts"
import { collect, finishDraft, sectionMeaning } from "./notice.ts"
import type { DraftOutcome, SectionMeaning } from "./notice.ts"
import { absoluteUrl, cleanText, isoLocalTimes, nonEmpty } from "./values.ts"

/** Direct invitation files on gnumner (or any file-looking link) are the tender documents themselves. */
const isDocumentLink = (url: string): boolean =>
  /\/website\/images\//u.test(url) || /\.(pdf|docx?|xlsx?|zip|rar|7z|xml)(?:[?#]|$)/iu.test(url)

/** ARMEPS `listContractDocuments.do` pages list the tender documents. */
const isArmepsDocuments = (url: string): boolean =>
  /\/\/(?:www\.)?armeps\.am\/epps\/cft\/listContractDocuments\.do/u.test(url)

/** docsUrl from a listing link: the gnumner file or the ARMEPS documents page; an eAuction page has none yet. */
const docsFor = (url: string | null): ReadonlyArray<string> =>
  url !== null && (isDocumentLink(url) || isArmepsDocuments(url)) ? [url] : []

const readItem = (item: HTMLElement, index: number, meaning: SectionMeaning, pageUrl: string): DraftOutcome => {
  const where = `${pageUrl} item ${index + 1}`
  const link = item.querySelector("div.tender_title > p > a") ?? item.querySelector(".tender_title a")
  if (link === null) return finishDraft({ ...empty(meaning), title: null }, `${where} (no div.tender_title > p > a)`)
  const { code, title } = splitBracketedCode(link.text)
  const url = absoluteUrl(link.getAttribute("href"), pageUrl)
  const timeLine = cleanText(item.querySelector("p.tender_time")?.text ?? item.text)
  const [publishedAt = null, secondTime = null] = isoLocalTimes(timeLine)
  // Failure and contract/result notices carry no submission deadline of their own (the single date is the
  // publication); a second date there would be something else, so it must not overwrite the tender's deadline.
  const deadline = meaning.kind === "original" || meaning.kind === "amendment" ? secondTime : null
  return finishDraft(
    { ...empty(meaning), code, title: nonEmpty(title), url, publishedAt, deadline, docsUrl: docsFor(url) },
    code === null ? where : `${where} [${code}]`
  )
}

const empty = (meaning: SectionMeaning) => ({
  meaning,
  code: null,
  title: null,
  buyer: null,
  budget: null,
  deadline: null,
  publishedAt: null,
  url: null,
  cpvCodes: [],
  docsUrl: []
})

/** Parses one gnumner.minfin.am listing page (Armenian or Russian UI) of a given section slug into notices. */
export const parseGnumnerListing = (
  html: string,
  options: { readonly section: string; readonly pageUrl: string }
): ParseResult => {
  const meaning = sectionMeaning(options.section)
  if (meaning === "skip") return { notices: [], rejected: [] }
  if (meaning === "unknown") {
    return {
      notices: [],
      rejected: [{ where: options.pageUrl, reason: `unknown gnumner section "${options.section}"` }]
    }
  }
  const root = parseHtml(html)
  if (root === null) return { notices: [], rejected: [] }
  return collect(root.querySelectorAll("div.tender").map((item, i) => readItem(item, i, meaning, options.pageUrl)))
}
