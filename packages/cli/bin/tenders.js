#!/usr/bin/env node
// Launcher: runs the TypeScript sources on Node >= 22.19 (type stripping), bringing Node 24 where the
// machine's Node is older. Kept to syntax any Node since 16 can parse.
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
// `serve` runs with a young generation of at most 2 x 16 MB (docs/decisions.md, "Issue 23: the server's memory"):
// Node 24 grows it to 2 x 64 MB on a machine with memory to spare, and a long-running server keeps all of it. The flag
// only works from a process's start, so the launcher starts `serve` with it, unless it is given (NODE_OPTIONS).
const youngGeneration = "--max-semi-space-size=16"
const youngGenerationGiven = [...process.execArgv, process.env.NODE_OPTIONS || ""].some((arg) =>
  arg.includes("--max-semi-space-size")
)
const serving = args.includes("serve") && !youngGenerationGiven
const main = join(here, "..", "src", "main.ts")
const [major, minor] = process.versions.node.split(".").map(Number)
const current = major > 22 || (major === 22 && minor >= 19)

if (current && serving && typeof process.execve === "function") {
  // The same process (its pid, its standard streams) replaced by one started with the flag.
  process.execve(process.execPath, [
    process.execPath,
    youngGeneration,
    ...process.execArgv,
    fileURLToPath(import.meta.url),
    ...args
  ])
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
  const { runTenders } = await import(pathToFileURL(main).href)
  process.exitCode = await runTenders(args)
} else {
  const ensure = join(here, "..", "..", "..", "scripts", "node-bin.sh")
  const found = spawnSync("sh", [ensure], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  const nodeBin = found.status === 0 ? found.stdout.trim() : ""
  if (nodeBin === "") {
    process.stderr.write("tenders: Node.js >= 22.19 is required and Node 24 could not be provisioned\n")
    process.exit(1)
  }
  const flags = serving ? [youngGeneration] : []
  const child = spawnSync(join(nodeBin, "node"), [...flags, fileURLToPath(import.meta.url), ...args], {
    stdio: "inherit"
  })
  process.exit(child.status === null ? 1 : child.status)
}
