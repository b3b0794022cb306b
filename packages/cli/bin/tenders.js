#!/usr/bin/env node
// Launcher: runs the TypeScript sources on Node >= 22.19 (type stripping), bringing Node 24 where the
// machine's Node is older. Kept to syntax any Node since 16 can parse.
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const main = join(here, "..", "src", "main.ts")
const [major, minor] = process.versions.node.split(".").map(Number)
const current = major > 22 || (major === 22 && minor >= 19)

if (current) {
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
  process.exitCode = await runTenders(process.argv.slice(2))
} else {
  const ensure = join(here, "..", "..", "..", "scripts", "node-bin.sh")
  const found = spawnSync("sh", [ensure], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  const nodeBin = found.status === 0 ? found.stdout.trim() : ""
  if (nodeBin === "") {
    process.stderr.write("tenders: Node.js >= 22.19 is required and Node 24 could not be provisioned\n")
    process.exit(1)
  }
  const child = spawnSync(join(nodeBin, "node"), [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit"
  })
  process.exit(child.status === null ? 1 : child.status)
}
