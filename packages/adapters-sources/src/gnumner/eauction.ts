import type { ParseResult } from "@tenders/core"
import { Predicate } from "effect"
import type { HTMLElement } from "node-html-parser"
import { displayCode } from "./code.ts"
import { parseHtml } from "./html.ts"
import { collect, finishDraft } from "./notice.ts"
import type { SectionMeaning } from "./notice.ts"
import { absoluteUrl, isoLocalTimes, nonEmpty, normalizeLabel } from "./values.ts"

/** Caption/value pairs of `div.de_t`/`div.de_v` and `div.fe_t`/`div.fe_v`, caption normalised. */
const pairs = (root: HTMLElement): ReadonlyArray<readonly [string, HTMLElement]> =>
  root.querySelectorAll("div.de_t, div.fe_t").flatMap((caption) => {
    const value = caption.nextElementSibling
    const wanted = caption.classList.contains("de_t") ? "de_v" : "fe_v"
    return value !== null && value.classList.contains(wanted) ? [[normalizeLabel(caption.text), value] as const] : []
  })

/** Caption spellings (Armenian UI, plus Russian/English guesses [inferred]) -> field. */
const LABELS = {
  code: ["ծածկագիր", "код", "шифр", "code"],
  title: ["վերնագիր", "название", "наименование", "title"],
  status: ["կարգավիճակ", "статус", "status"],
  published: ["հրապարակման ժամանակ", "время публикации", "дата публикации", "publication time", "published"],
  deadline: ["հայտերի ընդունման վերջնաժամկետ", "срок подачи заявок", "окончание приема заявок", "deadline"],
  invitation: ["հրավեր", "приглашение", "invitation"]
} as const

/**
 * eAuction status -> notice meaning. Only `Հրապարակված` (published) is seen in real pages; the others are
 * [inferred] from the Armenian words: չկայացած = failed, չեղարկված = cancelled, ավարտված/կնքված = finished.
 */
const meaningOf = (status: string | null): SectionMeaning => {
  const s = (status ?? "").toLocaleLowerCase("hy")
  if (/չկայաց|не состоял/u.test(s)) return { kind: "cancellation", reason: "failed" }
  if (/չեղարկ|отмен/u.test(s)) return { kind: "cancellation", reason: "cancelled" }
  if (/ավարտ|կնքված|заверш/u.test(s)) return { kind: "result", reason: null }
  return { kind: "original", reason: null }
}

/** Parses an eAuction tender_details page into a notice. */
export const parseEauctionDetail = (html: string, options: { readonly url: string }): ParseResult => {
  const root = parseHtml(html)
  if (root === null) return { notices: [], rejected: [] }
  const found = pairs(root)
  if (found.length === 0) return { notices: [], rejected: [] }
  const cell = (names: ReadonlyArray<string>): HTMLElement | null =>
    found.find(([label]) => names.includes(label))?.[1] ?? null
  const text = (names: ReadonlyArray<string>): string | null => nonEmpty(cell(names)?.text)
  const code = text(LABELS.code)
  const url = absoluteUrl(options.url, options.url)
  const invitations = (cell(LABELS.invitation)?.querySelectorAll("a") ?? [])
    .map((a) => absoluteUrl(a.getAttribute("href"), options.url))
    .filter(Predicate.isNotNull)
  return collect([
    finishDraft(
      {
        meaning: meaningOf(text(LABELS.status)),
        code: code === null ? null : displayCode(code),
        title: text(LABELS.title),
        buyer: null,
        budget: null,
        deadline: isoLocalTimes(text(LABELS.deadline) ?? "")[0] ?? null,
        publishedAt: isoLocalTimes(text(LABELS.published) ?? "")[0] ?? null,
        url,
        cpvCodes: [],
        docsUrl: [...new Set(invitations)]
      },
      code === null ? options.url : `${options.url} [${code}]`
    )
  ])
}
