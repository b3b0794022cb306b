import type { ParseResult } from "@tenders/core"
import { classify } from "./docTypes.ts"
import { lifecycle44 } from "./lifecycle44.ts"
import { finish, rejectOnly } from "./notice.ts"
import type { DraftBatch } from "./notice.ts"
import { notice223 } from "./notice223.ts"
import { notice44 } from "./notice44.ts"
import { rssItems } from "./rss.ts"
import { childNames, first, readXml } from "./xml.ts"
import type { XmlNode } from "./xml.ts"

/** The document element: the child of an `<export>` wrapper (44-FZ), else the root itself (223-FZ). */
const documentElement = (
  rootName: string,
  root: XmlNode
): { readonly name: string; readonly node: XmlNode } | undefined => {
  if (rootName !== "export") return { name: rootName, node: root }
  const name = childNames(root)[0]
  if (name === undefined) return undefined
  const node = first(root, name)
  return { name, node: node ?? {} }
}

const dispatch = (name: string, doc: XmlNode): DraftBatch => {
  const family = classify(name)
  switch (family._tag) {
    case "Notice44":
      return notice44(name, doc, family.segment)
    case "Cancel44":
      return lifecycle44(name, doc, "cancel", undefined)
    case "FinalProtocol44":
      return lifecycle44(name, doc, "final", family.segment)
    case "FailedProcedure44":
      return lifecycle44(name, doc, "failed", family.segment)
    case "Notice223":
      return notice223(name, doc, false)
    case "Rejection223":
      return notice223(name, doc, true)
    case "Unsupported":
      return rejectOnly(`eaeu:${name}`, family.reason)
  }
}

/**
 * Parses one EIS XML document into notices: 44-FZ epNotificationEF2020 / fcsNotification*, epNotificationCancel,
 * protocols, 223-FZ purchaseNotice*.
 */
export const parseEisXml = (xml: string): ParseResult => {
  const read = readXml(xml)
  if (read._tag === "Error") return { notices: [], rejected: [{ where: "eaeu:xml", reason: read.reason }] }
  const doc = documentElement(read.name, read.node)
  if (doc === undefined) return { notices: [], rejected: [{ where: "eaeu:export", reason: "empty <export> element" }] }
  return finish(dispatch(doc.name, doc.node))
}

/** Parses an EIS public-search RSS feed (items with escaped-HTML descriptions) into notices. */
export const parseEisRss = (xml: string): ParseResult => {
  const read = readXml(xml)
  if (read._tag === "Error") return { notices: [], rejected: [{ where: "eaeu:rss", reason: read.reason }] }
  return finish(rssItems(read.name, read.node))
}
