import type { ParseResult } from "@tenders/core"
import { Result } from "effect"
import { readZip } from "./feedZip.ts"
import { parseEisXml } from "./parse.ts"

const utf8 = new TextDecoder("utf-8")

/** Parses every XML file of an EIS archive (a ZIP, as the token service sends), or says why the ZIP is unreadable. */
export const readEisArchive = (bytes: Uint8Array): Result.Result<ReadonlyArray<ParseResult>, string> =>
  Result.map(readZip(bytes), (entries) =>
    entries
      .filter((entry) => /\.xml$/iu.test(entry.name))
      .map((entry) => {
        const result = parseEisXml(utf8.decode(entry.data))
        return {
          notices: result.notices,
          rejected: result.rejected.map((r) => ({ where: `${entry.name} ${r.where}`, reason: r.reason }))
        }
      })
  )

/** {@link readEisArchive} for a file: an unreadable archive is one rejection named `name`. */
export const parseEisArchive = (bytes: Uint8Array, name: string): ReadonlyArray<ParseResult> =>
  Result.getOrElse(readEisArchive(bytes), (failure) => [
    { notices: [], rejected: [{ where: name, reason: `not a readable ZIP archive: ${failure}` }] }
  ])
