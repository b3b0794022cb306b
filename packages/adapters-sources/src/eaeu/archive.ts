import type { ParseResult } from "@tenders/core"
import { Result } from "effect"
import { readZip } from "./feedZip.ts"
import { parseEisXml } from "./parse.ts"

const utf8 = new TextDecoder("utf-8")

/** Parses an EIS archive (a ZIP of XML documents, as the token service delivers) into one result per XML file. */
export const parseEisArchive = (bytes: Uint8Array, name: string): ReadonlyArray<ParseResult> => {
  const zip = readZip(bytes)
  if (Result.isFailure(zip))
    return [{ notices: [], rejected: [{ where: name, reason: `not a readable ZIP archive: ${zip.failure}` }] }]
  return zip.success
    .filter((entry) => /\.xml$/iu.test(entry.name))
    .map((entry) => {
      const result = parseEisXml(utf8.decode(entry.data))
      return {
        notices: result.notices,
        rejected: result.rejected.map((r) => ({ where: `${entry.name} ${r.where}`, reason: r.reason }))
      }
    })
}
