import type { ParseResult } from "@tenders/core"
import { parseArmepsDetail } from "./armeps.ts"
import { parseEauctionDetail } from "./eauction.ts"
import { parseGnumnerListing } from "./listing.ts"
import { sectionMeaning } from "./notice.ts"

const sectionLink = /\/(?:hy|ru|en)\/page\/([a-z0-9_]+)/gu

const known = (slug: string | undefined) => slug !== undefined && sectionMeaning(slug) !== "unknown"

/** A known section slug inside a file name such as `listing-page_hraverum_katarvats_popokhutyunner_2.html`. */
const sectionInName = (name: string): string | undefined => {
  for (const token of name.toLowerCase().split(/[^a-z0-9_]+/u)) {
    for (let i = 0; i < token.length; i++) {
      if (i > 0 && token[i - 1] !== "_") continue
      const candidate = token.slice(i)
      if (known(candidate)) return candidate
      const trimmed = candidate.replace(/_\d+$/u, "")
      if (known(trimmed)) return trimmed
    }
  }
  return undefined
}

/**
 * The listing section of a saved page: the given one, else one named in the file name, else the first known section
 * the page links to.
 */
export const guessSection = (html: string, hint: string | undefined, fileName = ""): string | undefined => {
  if (known(hint)) return hint
  const fromName = sectionInName(fileName)
  if (fromName !== undefined) return fromName
  for (const match of html.matchAll(sectionLink)) {
    const slug = match[1]
    if (slug !== undefined && sectionMeaning(slug) !== "unknown") return slug
  }
  return undefined
}

const ownUrl = [
  /https:\/\/armeps\.am\/epps\/cft\/listContractDocuments\.do\?resourceId=\d+/u,
  /https:\/\/eauction\.armeps\.am\/(?:hy|ru|en)\/public\/tender_details\/tmid\/[0-9a-f-]{36}/u
]

/** A saved detail page's own address, from the page (its canonical link or a link to itself), else `fallback`. */
const detailUrl = (html: string, fallback: string): string => {
  if (/^https?:\/\//u.test(fallback)) return fallback
  for (const pattern of ownUrl) {
    const found = pattern.exec(html)?.[0]
    if (found !== undefined) return found
  }
  return fallback
}

/**
 * Parses any saved gnumner-family page: an ARMEPS contract-documents page, an eAuction tender page, or a
 * gnumner listing page (its section from `section`, else from the page's own section links).
 */
export const parseGnumnerPage = (
  html: string,
  options: { readonly url: string; readonly section?: string | undefined; readonly fileName?: string | undefined }
): ParseResult => {
  if (/class="de_t"/u.test(html)) return parseEauctionDetail(html, { url: detailUrl(html, options.url) })
  if (/<dl[^>]*class="[^"]*Grid/u.test(html)) return parseArmepsDetail(html, { url: detailUrl(html, options.url) })
  const section = guessSection(html, options.section, options.fileName)
  if (section === undefined) {
    return {
      notices: [],
      rejected: [
        {
          where: options.url,
          reason: "cannot tell which gnumner section this listing page belongs to; pass --section <slug>"
        }
      ]
    }
  }
  return parseGnumnerListing(html, { section, pageUrl: options.url })
}
