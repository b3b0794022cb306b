// Builds the published package (DESIGN §2: the SDK bundles @tenders/core and @tenders/contract, which are not
// published): dist/index.js is an esbuild bundle of src/ with the parts of core and contract it uses (effect and
// standardwebhooks stay external); dist/**/*.d.ts are tsc declarations of src/, with those of core and contract
// vendored under dist/vendor/ and every @tenders/* specifier rewritten to a relative path.
// Usage: node scripts/build.mjs   (from packages/client-sdk, or via `npm run build`)
import { spawnSync } from "node:child_process"
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { build } from "esbuild"

const root = resolve(import.meta.dirname, "..")
const packages = resolve(root, "..")
const dist = join(root, "dist")
const external = ["effect", "standardwebhooks"]

const findBin = (name) => {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ".bin", name)
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) throw new Error(`${name} not found in any node_modules/.bin above ${root}`)
  }
}

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

const tsc = findBin("tsc")
const declarations = (project, outDir) => {
  const args = [
    "-p",
    project,
    "--emitDeclarationOnly",
    "--outDir",
    outDir,
    "--customConditions",
    "@tenders/source",
    "--sourceMap",
    "false",
    "--declarationMap",
    "false"
  ]
  const result = spawnSync(tsc, args, { stdio: "inherit" })
  if (result.status !== 0) throw new Error(`tsc ${args.join(" ")} failed`)
}

rmSync(dist, { recursive: true, force: true })
// The repository's licence travels with the package (npm packs a LICENSE next to package.json).
copyFileSync(join(packages, "..", "LICENSE"), join(root, "LICENSE"))

// 1. Declarations: the SDK's own into dist/, core's and contract's into dist/vendor/.
declarations(join(root, "tsconfig.build.json"), dist)
declarations(join(packages, "core", "tsconfig.build.json"), join(dist, "vendor", "core"))
declarations(join(packages, "contract", "tsconfig.build.json"), join(dist, "vendor", "contract"))
rmSync(join(dist, "vendor", "core", "testing"), { recursive: true, force: true })

const vendored = {
  "@tenders/core": join(dist, "vendor", "core", "index.js"),
  "@tenders/contract": join(dist, "vendor", "contract", "index.js")
}
const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"']+)\2/gu
for (const file of walk(dist).filter((path) => path.endsWith(".d.ts"))) {
  const text = readFileSync(file, "utf8")
  const rewritten = text.replace(specifier, (match, lead, quote, spec) => {
    let target = spec
    if (spec in vendored) {
      target = relative(dirname(file), vendored[spec]).split(sep).join("/")
      if (!target.startsWith(".")) target = `./${target}`
    } else if (spec.startsWith("@tenders/")) {
      throw new Error(`${relative(root, file)} refers to ${spec}, which is not vendored`)
    } else if (spec.startsWith(".") && spec.endsWith(".ts")) {
      target = `${spec.slice(0, -3)}.js`
    }
    return `${lead}${quote}${target}${quote}`
  })
  if (rewritten !== text) writeFileSync(file, rewritten)
}

// 2. JavaScript: one ESM bundle; core's and contract's modules are pure, so unused ones are dropped.
const ownSources = [join(packages, "core", "src") + sep, join(packages, "contract", "src") + sep]
const sideEffectFree = {
  name: "workspace-sources-are-pure",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(\.|@tenders\/)/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "resolving"
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      return ownSources.some((dir) => resolved.path.startsWith(dir)) ? { ...resolved, sideEffects: false } : resolved
    })
  }
}
const result = await build({
  entryPoints: [join(root, "src", "index.ts")],
  outfile: join(dist, "index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  conditions: ["@tenders/source"],
  external: external.flatMap((name) => [name, `${name}/*`]),
  plugins: [sideEffectFree],
  sourcemap: true,
  metafile: true,
  legalComments: "none",
  logLevel: "warning"
})

// 3. The bundle imports only its runtime dependencies (declarations were checked while rewriting).
const imports = Object.values(result.metafile.outputs).flatMap((output) =>
  output.imports.filter((i) => i.external).map((i) => i.path)
)
const stray = imports.filter((path) => !external.some((name) => path === name || path.startsWith(`${name}/`)))
if (stray.length > 0)
  throw new Error(`dist/index.js imports ${stray.join(", ")}; only ${external.join(", ")} may stay external`)
const size = statSync(join(dist, "index.js")).size
const declarationCount = walk(dist).filter((p) => p.endsWith(".d.ts")).length
process.stdout.write(
  `client-sdk: dist/index.js ${(size / 1024).toFixed(1)} KiB, ${declarationCount} declaration files\n`
)
