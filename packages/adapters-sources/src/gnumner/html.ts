import { parse } from "node-html-parser"
import type { HTMLElement } from "node-html-parser"

/** Parses HTML leniently; null when the parser gives up (never throws). */
export const parseHtml = (html: string): HTMLElement | null => {
  try {
    return parse(typeof html === "string" ? html : "", {
      comment: false,
      blockTextElements: { script: false, style: false }
    })
  } catch {
    return null
  }
}

/** Text of an element with `<br>` turned into line breaks, lines cleaned (for multi-value cells like CPV lists). */
export const lines = (element: HTMLElement): ReadonlyArray<string> =>
  element.innerHTML
    .split(/<br\s*\/?>/iu)
    .map((part) => parseHtml(part)?.text ?? "")
    .map((t) => t.normalize("NFC").replace(/\s+/gu, " ").trim())
    .filter((t) => t.length > 0)
