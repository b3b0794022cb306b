import {
  parseEisArchive,
  parseEisRss,
  parseEisXml,
  parseGnumnerPage,
  parseTedSearchResponse
} from "@tenders/adapters-sources"
import type { ParseResult, SourceCode } from "@tenders/core"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { basename, extname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { Option, Schema } from "effect"

const extensions: Record<SourceCode, ReadonlyArray<string>> = {
  ted: [".json"],
  gnumner: [".html", ".htm"],
  eaeu: [".xml", ".zip"]
}

/** The payload files under a path (a file, or a directory walked recursively), in name order. */
export const payloadFiles = (path: string, source: SourceCode): ReadonlyArray<string> => {
  const full = resolve(path)
  if (!statSync(full).isDirectory()) return [full]
  return readdirSync(full)
    .toSorted()
    .flatMap((name) => {
      const child = join(full, name)
      if (statSync(child).isDirectory()) return payloadFiles(child, source)
      return extensions[source].includes(extname(name).toLowerCase()) ? [child] : []
    })
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** Parses one recorded payload in the source's own format: the same bytes the live feed would have read. */
export const parsePayloadFile = (
  file: string,
  source: SourceCode,
  options: { readonly section?: string | undefined }
): ParseResult => {
  const where = basename(file)
  if (source === "eaeu" && extname(file).toLowerCase() === ".zip") {
    const parts = parseEisArchive(readFileSync(file), where)
    return {
      notices: parts.flatMap((p) => p.notices),
      rejected: parts.flatMap((p) => p.rejected.map((r) => ({ where: `${where} ${r.where}`, reason: r.reason })))
    }
  }
  const text = readFileSync(file, "utf8")
  const result = ((): ParseResult => {
    switch (source) {
      case "ted": {
        return Option.match(parseJson(text), {
          onNone: () => ({ notices: [], rejected: [{ where, reason: "not JSON" }] }),
          onSome: parseTedSearchResponse
        })
      }
      case "eaeu":
        return /<rss[\s>]/u.test(text.slice(0, 2000)) ? parseEisRss(text) : parseEisXml(text)
      case "gnumner":
        return parseGnumnerPage(text, { url: pathToFileURL(file).href, section: options.section, fileName: where })
    }
  })()
  const url = pathToFileURL(file).href
  const rejected = result.rejected.map((r) => ({
    where: `${where} ${r.where.replace(url, "").trim()}`.trim(),
    reason: r.reason
  }))
  return { notices: result.notices, rejected }
}
