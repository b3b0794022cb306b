import { Result } from "effect"
import type { XMLParser } from "fast-xml-parser"

/** Parses (and validates) an XML text with the given parser; malformed XML is the parser's message, never a throw. */
export const parseXml = (parser: XMLParser, xml: string): Result.Result<unknown, string> =>
  Result.try({
    try: (): unknown => parser.parse(xml, true),
    catch: (error) => (error instanceof Error ? error.message : String(error))
  })
