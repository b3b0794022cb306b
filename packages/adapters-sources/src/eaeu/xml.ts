import { Predicate, Result } from "effect"
import { XMLParser } from "fast-xml-parser"
import { parseXml } from "../parseXml.ts"

/** An XML element as fast-xml-parser renders it (namespace prefixes removed, attributes dropped). */
export type XmlNode = { readonly [name: string]: unknown }

/** The outcome of reading one XML payload: its top element, or why it could not be read. */
export type XmlDocument =
  | { readonly _tag: "Ok"; readonly name: string; readonly node: XmlNode }
  | { readonly _tag: "Error"; readonly reason: string }

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true
})

const elementNames = (node: XmlNode): ReadonlyArray<string> =>
  Object.keys(node).filter((key) => key !== "#text" && !key.startsWith("?"))

/** Parses and validates an XML string; never throws. Returns the (single) top element. */
export const readXml = (xml: string): XmlDocument => {
  const result = parseXml(parser, xml)
  if (Result.isFailure(result)) return { _tag: "Error", reason: `malformed XML: ${result.failure}` }
  const parsed = result.success
  if (parsed === true || !Predicate.isObject(parsed)) return { _tag: "Error", reason: "malformed XML" }
  const names = elementNames(parsed)
  const name = names[0]
  if (name === undefined) return { _tag: "Error", reason: "empty XML document (no root element)" }
  const node = parsed[name]
  return { _tag: "Ok", name, node: asNode(node) }
}

const asNode = (value: unknown): XmlNode => {
  if (Array.isArray(value)) return asNode(value[0])
  return Predicate.isObject(value) ? value : {}
}

const toArray = (value: unknown): ReadonlyArray<unknown> =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/** All element children of `node` with the given local name (single child and repeated children alike). */
export const children = (node: XmlNode | undefined, name: string): ReadonlyArray<XmlNode> =>
  node === undefined ? [] : toArray(node[name]).filter(Predicate.isObject)

/** Follows a path of local names, collecting every matching element (fans out over repeated elements). */
export const all = (node: XmlNode | undefined, ...path: ReadonlyArray<string>): ReadonlyArray<XmlNode> =>
  path.reduce<ReadonlyArray<XmlNode>>(
    (nodes, name) => nodes.flatMap((n) => children(n, name)),
    node === undefined ? [] : [node]
  )

/** The first element at a path of local names. */
export const first = (node: XmlNode | undefined, ...path: ReadonlyArray<string>): XmlNode | undefined =>
  all(node, ...path)[0]

const textOf = (value: unknown): string | undefined => {
  if (Predicate.isString(value)) return value.trim() === "" ? undefined : value.trim()
  if (Predicate.isNumber(value) || Predicate.isBoolean(value)) return String(value)
  if (Predicate.isObject(value)) return textOf(value["#text"])
  return undefined
}

/** Every non-empty text value at a path of local names (the last name is the text element). */
export const texts = (node: XmlNode | undefined, ...path: ReadonlyArray<string>): ReadonlyArray<string> => {
  const parents = all(node, ...path.slice(0, -1))
  const last = path[path.length - 1]
  if (last === undefined) return []
  return parents.flatMap((p) => toArray(p[last]).flatMap((v) => textOf(v) ?? []))
}

/** The first non-empty text at a path of local names; empty elements count as missing. */
export const text = (node: XmlNode | undefined, ...path: ReadonlyArray<string>): string | undefined =>
  texts(node, ...path)[0]

/** The first non-empty text among several alternative paths. */
export const textAt = (node: XmlNode | undefined, paths: ReadonlyArray<ReadonlyArray<string>>): string | undefined => {
  for (const path of paths) {
    const found = text(node, ...path)
    if (found !== undefined) return found
  }
  return undefined
}

/** Every element named `name` anywhere below `node` (document order, depth first). */
export const descendants = (node: XmlNode | undefined, name: string): ReadonlyArray<XmlNode> => {
  if (node === undefined) return []
  const out: Array<XmlNode> = []
  for (const key of elementNames(node)) {
    for (const child of toArray(node[key]).filter(Predicate.isObject)) {
      if (key === name) out.push(child)
      out.push(...descendants(child, name))
    }
  }
  return out
}

/** Texts of every element named `name` anywhere below `node`. */
export const descendantTexts = (node: XmlNode | undefined, name: string): ReadonlyArray<string> => {
  if (node === undefined) return []
  const out: Array<string> = []
  for (const key of elementNames(node)) {
    for (const value of toArray(node[key])) {
      if (key === name) {
        const t = textOf(value)
        if (t !== undefined) out.push(t)
      }
      if (Predicate.isObject(value)) out.push(...descendantTexts(value, name))
    }
  }
  return out
}

/** The names of the element children of `node`. */
export const childNames = (node: XmlNode): ReadonlyArray<string> => elementNames(node)
