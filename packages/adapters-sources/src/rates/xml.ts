import { Predicate, Result } from "effect"
import { XMLParser } from "fast-xml-parser"
import { parseXml } from "../parseXml.ts"

/** The elements that repeat in the publishers' documents: always arrays, even when one is present. */
const repeated = new Set(["Cube", "Valute", "ExchangeRate"])

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => repeated.has(name)
})

/** An XML document of a rates publisher as a plain object (namespace prefixes removed, attributes as `@name`). */
export const readRatesXml = (xml: string): Result.Result<Record<string, unknown>, string> =>
  Result.flatMap(
    Result.mapError(parseXml(parser, xml), (reason) => `malformed XML: ${reason}`),
    (parsed) => (Predicate.isObject(parsed) ? Result.succeed({ ...parsed }) : Result.fail("malformed XML"))
  )

const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/u

/** The text of an XML document in the encoding its declaration names (UTF-8 without one): CBR's is windows-1251. */
export const xmlText = (bytes: Uint8Array): Result.Result<string, string> => {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200))
  const encoding = declared.exec(head)?.[1] ?? "utf-8"
  return Result.try({
    try: () => new TextDecoder(encoding, { fatal: true }).decode(bytes),
    catch: () => `not readable as ${encoding}, the encoding its XML declaration names`
  })
}
