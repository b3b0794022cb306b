// Where a server's CPU time went, from a V8 `.cpuprofile` (`node --cpu-prof`): self time by part of a call, by file
// and by function. Self time only: an Effect program runs its steps from the fiber loop, so a stack does not show
// which use case a driver call was made for.
import { readFileSync } from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The parts of a call, by the file (or V8's pseudo-frame) a sample was taken in; the first that matches. */
const parts: ReadonlyArray<readonly [string, RegExp]> = [
  ["idle", /^\(idle\)$/u],
  ["garbage collection", /^\(garbage collector\)$/u],
  ["writes to sockets and pipes (native)", /^(writeBuffer|writev|writeUtf8String|writeLatin1String)$/u],
  ["V8 and native, unattributed", /^\(program\)$/u],
  ["auth and quota", /AuthorizeCall|PgAccountStore|Authorization|CallQuota|Secrets/u],
  ["health", /Health|SourceStatus/u],
  ["search (use case, text analysis, SQL)", /SearchTenders|search-text|RankedSearch|SearchSql|TextQuery|Search\.ts/u],
  ["get-tender", /GetTender|FullTender/u],
  ["PostgreSQL driver", /sql-pg|\/sql\//u],
  ["Schema decode/encode", /effect\/dist\/.*Schema/u],
  ["dates (DateTime, Time.ts)", /dateTime|DateTime|core\/Time\.ts|\/Time\.ts/u],
  ["HTTP (node, router)", /node:_http|node:http|node:net|effect\/dist\/http/u],
  ["Effect runtime", /effect\/dist\//u]
]

const where = (node: ProfileNode) => {
  const { url, functionName } = node.callFrame
  if (url === "") return functionName
  const trimmed = url.replace(/^file:\/\//u, "")
  const inPackage = /\/packages\/([^/]+)\/src\/(.+)$/u.exec(trimmed)
  if (inPackage !== null) return `${inPackage[1]}/${inPackage[2]}`
  const inModules = /\/node_modules\/(.+)$/u.exec(trimmed)
  return inModules?.[1] ?? trimmed
}

const table = (title: string, totals: Map<string, number>, all: number, rows: number) =>
  [
    title,
    ...[...totals]
      .toSorted((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(
        ([name, us]) =>
          `  ${((100 * us) / all).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`
      )
  ].join("\n")

/** The profile's self time by part, by file (top 15) and by function (top 15), as text. */
export const summariseProfile = (file: string): string => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const byPart = new Map<string, number>()
  const byFile = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let all = 0
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us)
  for (const [i, id] of profile.samples.entries()) {
    const node = byId.get(id)
    const us = profile.timeDeltas[i] ?? 0
    if (node === undefined) continue
    all += us
    const place = where(node)
    const haystack = `${node.callFrame.url} ${place}`
    add(
      byPart,
      parts.find(([, pattern]) => pattern.test(node.callFrame.url === "" ? place : haystack))?.[0] ?? "other",
      us
    )
    add(byFile, place, us)
    add(byFunction, `${node.callFrame.functionName || "(anonymous)"} ${place}:${node.callFrame.lineNumber + 1}`, us)
  }
  return [
    `CPU profile ${file}: ${(all / 1e6).toFixed(1)} s sampled (self time)`,
    table("by part of a call:", byPart, all, parts.length + 1),
    table("by file:", byFile, all, 15),
    table("by function:", byFunction, all, 15),
    ""
  ].join("\n")
}
