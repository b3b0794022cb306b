// Runs a TypeScript entry of this repository with the workspace packages resolved to their sources.
// Usage: node scripts/run-ts.mjs FILE [args...]
import { registerHooks } from "node:module"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

registerHooks({
  resolve(specifier, context, nextResolve) {
    const conditions = context.conditions.includes("@tenders/source")
      ? context.conditions
      : ["@tenders/source", ...context.conditions]
    return nextResolve(specifier, { ...context, conditions })
  }
})
const [file, ...rest] = process.argv.slice(2)
process.argv = [process.argv[0], resolve(file), ...rest]
await import(pathToFileURL(resolve(file)).href)
