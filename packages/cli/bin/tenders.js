#!/usr/bin/env node
// Launcher: runs the TypeScript sources on Node >= 22.19 (type stripping), bringing Node 24 where the
// machine's Node is older. Kept to syntax any Node since 16 can parse.
import { spawnSync } from "node:child_process"
import { readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
// `serve` runs with a young generation of at most 2 x 16 MB, an old generation of at most 384 MB, and the C
// library's heap in at most two arenas that give memory back (docs/decisions.md, "Issue 23: the server's memory" and
// "the server's memory under load"): Node 24 grows the young generation to 2 x 64 MB on a machine with memory to spare
// and lets the old one grow to about four times its live set before a full collection, and a long-running server
// keeps it all. V8's flags only work from a process's start, so the launcher starts `serve` with them, each unless it
// is given (NODE_OPTIONS, node's own flags), and the C library's settings unless the environment has its own.
const serveFlags = ["--max-semi-space-size=16", "--max-old-space-size=384"]
const serveMalloc = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072"
const given = [...process.execArgv, process.env.NODE_OPTIONS || ""]
const flagsToGive = serveFlags.filter((flag) => !given.some((arg) => arg.includes(flag.split("=")[0])))
const serving = args.includes("serve") && flagsToGive.length > 0
const mallocGiven = ["GLIBC_TUNABLES", "MALLOC_ARENA_MAX"].some((name) => process.env[name] !== undefined)
const serveEnv = mallocGiven ? process.env : { ...process.env, GLIBC_TUNABLES: serveMalloc }
const main = join(here, "..", "src", "main.ts")
const bundle = join(here, "..", "dist", "tenders.mjs")

/**
 * `serve` runs from its bundle (`npm run build` makes packages/cli/dist/tenders.mjs, scripts/bundle.mjs: the same
 * sources in one module and the chunks it imports when first needed, a smaller heap) while no file it was made from is newer than it; else from the sources, as
 * every other command does, saying so where a bundle is there but older than its sources. `TENDERS_FROM_SOURCES=1`
 * serves from the sources all the same (a CPU profile then names each function's file).
 */
const serveModule = () => {
  if (process.env.TENDERS_FROM_SOURCES === "1") return main
  // A file's modification time; a missing file's is never older than anything.
  const modified = (file) => {
    try {
      return statSync(file).mtimeMs
    } catch {
      return Infinity
    }
  }
  const built = modified(bundle)
  if (built === Infinity) return main
  const root = join(here, "..", "..", "..")
  let inputs
  try {
    inputs = JSON.parse(readFileSync(`${bundle}.inputs.json`, "utf8"))
  } catch {
    inputs = undefined
  }
  if (Array.isArray(inputs) && inputs.every((file) => modified(join(root, file)) <= built)) return bundle
  process.stderr.write("tenders: packages/cli/dist/tenders.mjs is older than its sources; serving from the sources\n")
  return main
}
const [major, minor] = process.versions.node.split(".").map(Number)
const current = major > 22 || (major === 22 && minor >= 19)

if (current && serving && typeof process.execve === "function") {
  // The same process (its pid, its standard streams) replaced by one started with the flags and settings.
  process.execve(
    process.execPath,
    [process.execPath, ...flagsToGive, ...process.execArgv, fileURLToPath(import.meta.url), ...args],
    serveEnv
  )
} else if (current) {
  const { enableCompileCache, registerHooks } = await import("node:module")
  // Caches the compiled (and type-stripped) modules between runs: about 1.5 s off every command.
  enableCompileCache?.()
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const conditions = context.conditions.includes("@tenders/source")
        ? context.conditions
        : ["@tenders/source", ...context.conditions]
      return nextResolve(specifier, { ...context, conditions })
    }
  })
  process.removeAllListeners("warning")
  const { runTenders } = await import(pathToFileURL(args.includes("serve") ? serveModule() : main).href)
  process.exitCode = await runTenders(args)
} else {
  const ensure = join(here, "..", "..", "..", "scripts", "node-bin.sh")
  const found = spawnSync("sh", [ensure], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  const nodeBin = found.status === 0 ? found.stdout.trim() : ""
  if (nodeBin === "") {
    process.stderr.write("tenders: Node.js >= 22.19 is required and Node 24 could not be provisioned\n")
    process.exit(1)
  }
  const flags = serving ? flagsToGive : []
  const child = spawnSync(join(nodeBin, "node"), [...flags, fileURLToPath(import.meta.url), ...args], {
    stdio: "inherit",
    env: serving ? serveEnv : process.env
  })
  process.exit(child.status === null ? 1 : child.status)
}
