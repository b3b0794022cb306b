// `npm run build` (this workspace's `build`): `tenders serve`'s bundle, packages/cli/dist/tenders.mjs. The CLI's
// sources and their dependencies in one ESM module and the chunks it imports when first needed (dist/chunks: what a
// dynamic import loads, such as `/docs`'s page with Scalar's 3.2 MB script, stays out of a server that never serves
// it), whitespace and syntax minified (names kept, so a stack trace still names its functions), non-ASCII written as
// escapes: V8 keeps every loaded module's source, and about 1,100 modules' sources (14.5 MB of files, much of it
// comments, two bytes a character where a file has one non-ASCII character) held about 30 MB of a serving process's
// heap (docs/decisions.md, "the server's bundle").
// PGlite stays a package of its own: it finds its WebAssembly and data files next to its own modules. Beside the
// bundle: the legal comments of what it holds, and the files it was made from (the launcher serves from the bundle
// only while none of them is newer than it, bin/tenders.js).
import { build } from "esbuild"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"

const root = join(import.meta.dirname, "..", "..", "..")
const dist = join(root, "packages", "cli", "dist")
const bundle = join(dist, "tenders.mjs")
/** The chunks: what the sources import dynamically (the server, `/docs`'s page), each loaded when first imported. */
const chunks = join(dist, "chunks")
const started = performance.now()
const { metafile, outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: { tenders: join(root, "packages", "cli", "src", "main.ts") },
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  // A dynamic import is a chunk of its own, and what only it needs stays out of the bundle.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  conditions: ["@tenders/source"],
  minifyWhitespace: true,
  minifySyntax: true,
  charset: "ascii",
  legalComments: "linked",
  external: ["@electric-sql/pglite", "@electric-sql/pglite/*"],
  // What the bundled CommonJS modules require of Node's own modules.
  banner: {
    js:
      "import { createRequire as __tendersRequire } from 'node:module'; " +
      "const require = __tendersRequire(import.meta.url);"
  },
  metafile: true,
  write: false,
  logLevel: "warning"
})
/**
 * esbuild's `charset: "ascii"` escapes strings, templates and names, not regular expressions' literals (ours match
 * Russian words): one such character would make V8 keep the whole bundle two bytes a character. In a literal, an
 * escape `\uXXXX` is the same character, with the `u` flag or without; an escaped non-ASCII character (`\ё`) would
 * not stay one, and fails the build.
 */
const ascii = (text) =>
  // One UTF-16 unit a match (no `u` flag): a character beyond the BMP is its two surrogates' escapes, as it is in a
  // literal with the `u` flag or without.
  text.replace(/(\\*)([\u0080-\uffff])/g, (_, slashes, unit) => {
    if (slashes.length % 2 === 1) throw new Error(`bundle.mjs: an escaped non-ASCII character: ${slashes}${unit}`)
    return `${slashes}\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`
  })
rmSync(chunks, { recursive: true, force: true })
let text = ""
let size = 0
for (const file of outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true })
  if (!file.path.endsWith(".mjs")) writeFileSync(file.path, file.contents)
  else if (file.path === bundle) text = ascii(file.text)
  else {
    const chunk = ascii(file.text)
    size += chunk.length
    writeFileSync(file.path, chunk)
  }
}
// The bundle last: the launcher serves from it once it is newer than its sources, and its chunks are written then.
writeFileSync(bundle, text)
const inputs = Object.keys(metafile.inputs).filter((file) => !file.includes("node_modules/"))
writeFileSync(`${bundle}.inputs.json`, `${JSON.stringify([...inputs, "package-lock.json"].toSorted(), null, 1)}\n`)
const files = Object.keys(metafile.inputs).length
process.stdout.write(
  `${relative(root, bundle)} and its chunks: ${((text.length + size) / 1e6).toFixed(1)} MB from ${files} files ` +
    `(${inputs.length} of this repository) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`
)
