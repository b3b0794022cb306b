// Fails (exit 1) when a package imports something its layer may not (DESIGN §2, STYLE "Layout").
// Usage: node scripts/check-architecture.mjs [--root DIR]
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve, sep } from "node:path"

const rootArg = process.argv.indexOf("--root")
const root = resolve(rootArg > 0 ? process.argv[rootArg + 1] : join(import.meta.dirname, ".."))

/**
 * Bare specifiers each package may import (exact name or name + "/...");
 * relative imports must stay inside the package.
 */
const rules = {
  core: ["effect"],
  "search-text": ["effect", "@tenders/core", "fast-xml-parser", "snowball-stemmers", "node:"],
  contract: ["effect", "@tenders/core"],
  "store-postgres": [
    "effect",
    "@tenders/core",
    "@effect/sql-pg",
    "@effect/platform-node",
    "@electric-sql/pglite",
    "node:"
  ],
  "adapters-sources": [
    "effect",
    "@tenders/core",
    "@effect/platform-node",
    "fast-xml-parser",
    "node-html-parser",
    "undici",
    "node:"
  ],
  http: ["effect", "@tenders/core", "@tenders/contract", "node:"],
  "adapters-notify": ["effect", "@tenders/core", "nodemailer", "standardwebhooks", "undici", "node:"],
  dashboard: ["effect", "@tenders/core", "node:"],
  mcp: ["effect", "@tenders/core", "@tenders/contract", "@modelcontextprotocol/server", "node:"],
  "client-sdk": ["effect", "@tenders/core", "@tenders/contract", "standardwebhooks"],
  cli: ["*"]
}

// `import|export ... from "x"`, `import("x")`, or `import "x"`.
const importPattern = new RegExp(
  [
    String.raw`(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']`,
    String.raw`(?:^|[\s;(])import\s*\(\s*["']([^"']+)["']\s*\)`,
    String.raw`^\s*import\s*["']([^"']+)["']`
  ].join("|"),
  "gmu"
)

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts|js|mjs)$/u.test(name) ? [path] : []
  })

const allowed = (spec, allow) =>
  allow.includes("*") ||
  allow.some((a) => (a.endsWith(":") ? spec.startsWith(a) : spec === a || spec.startsWith(`${a}/`)))

const violations = []
const packagesDir = join(root, "packages")
for (const pkg of readdirSync(packagesDir)) {
  const src = join(packagesDir, pkg, "src")
  if (!statSync(join(packagesDir, pkg)).isDirectory()) continue
  const allow = rules[pkg]
  if (allow === undefined) {
    violations.push(
      `packages/${pkg}: no architecture rule for this package (add one to scripts/check-architecture.mjs)`
    )
    continue
  }
  let files = []
  try {
    files = walk(src)
  } catch {
    continue
  }
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3]
      const where = relative(root, file)
      if (spec.startsWith(".")) {
        const target = resolve(file, "..", spec)
        if (!target.startsWith(join(packagesDir, pkg) + sep))
          violations.push(`${where}: relative import "${spec}" leaves packages/${pkg}`)
      } else if (!allowed(spec, allow)) {
        violations.push(`${where}: packages/${pkg} may not import "${spec}" (allowed: ${allow.join(", ")})`)
      }
    }
  }
}

if (violations.length > 0) {
  process.stderr.write(`Architecture check failed:\n${violations.map((v) => `  ${v}`).join("\n")}\n`)
  process.exit(1)
}
process.stdout.write("Architecture check passed.\n")
