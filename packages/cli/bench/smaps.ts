// A process's resident memory by kind of mapping, from /proc/<pid>/smaps (Linux), for bench:memory.
import { readFileSync } from "node:fs"

/**
 * Resident kB by kind: the C library's main heap and its other arenas, Node's binary (code, data), other files,
 * anonymous.
 */
export interface Smaps {
  readonly rss: number
  readonly kinds: ReadonlyMap<string, number>
}

// glibc's arenas other than the main one are 64 MB reservations aligned to 64 MB (HEAP_MAX_SIZE on 64-bit).
const arenaSize = 64 * 1024 * 1024

const kindOf = (start: bigint, end: bigint, perms: string, path: string, next: string | undefined): string => {
  if (path === "[heap]") return "C heap (main arena)"
  if (path === "[stack]") return "main stack"
  // Its code, and its read-only data (ICU's tables among them, read as Intl and normalisation need them).
  if (path.endsWith("/node")) return perms.includes("x") ? "node binary (code)" : "node binary (data)"
  if (path.startsWith("/")) return "other files"
  if (path !== "") return path
  const size = Number(end - start)
  if (start % BigInt(arenaSize) === 0n && size <= arenaSize && perms.startsWith("rw") && next === "---p")
    return "C heap (other arenas)"
  if (size === 256 * 1024) return "anon 256 kB (V8 pages)"
  if (size > 1024 * 1024) return "anon > 1 MB"
  return "anon other"
}

/** The resident set of `pid` split by kind of mapping, in kB. */
export const smapsOf = (pid: number): Smaps => {
  const lines = readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")
  const headers = lines.flatMap((line, i) => (/^[0-9a-f]+-[0-9a-f]+ /u.test(line) ? [i] : []))
  const kinds = new Map<string, number>()
  let rss = 0
  for (const [n, at] of headers.entries()) {
    const [range = "", perms = "", , , , ...rest] = (lines[at] ?? "").split(/\s+/u)
    const [start = "0", end = "0"] = range.split("-")
    const nextPerms = headers[n + 1] === undefined ? undefined : (lines[headers[n + 1] ?? 0] ?? "").split(/\s+/u)[1]
    const body = lines.slice(at + 1, headers[n + 1] ?? lines.length)
    const resident = Number(/^Rss:\s+(\d+)/mu.exec(body.join("\n"))?.[1] ?? 0)
    const kind = kindOf(BigInt(`0x${start}`), BigInt(`0x${end}`), perms, rest.join(" "), nextPerms)
    kinds.set(kind, (kinds.get(kind) ?? 0) + resident)
    rss += resident
  }
  return { rss, kinds }
}

/** One line: the RSS and its kinds, in MB. */
export const describeSmaps = ({ rss, kinds }: Smaps): string =>
  `rss ${(rss / 1024).toFixed(1)} MB: ` +
  [...kinds.entries()]
    .toSorted(([, a], [, b]) => b - a)
    .map(([kind, kb]) => `${kind} ${(kb / 1024).toFixed(1)}`)
    .join(", ")
