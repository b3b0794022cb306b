// Writes packages/cli/data/sample-tenders.jsonl, the bundled sample dataset (docs/sample-data.md): synthetic notices
// modelled on real ones from TED, gnumner.minfin.am/ARMEPS and zakupki.gov.ru, built from the tables of this folder.
// Deterministic: a seeded PRNG and a fixed anchor instant, so every run writes the same bytes.
// Usage: node scripts/run-ts.mjs scripts/sample-data/generate.ts [--check]   (--check: compare, do not write)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { samplePath } from "../../packages/cli/src/SampleData.ts"
import { checkSample, decodeRecord, summarize } from "./checks.ts"
import { anchor, statusPlan, utc } from "./dates.ts"
import { eaeuBuyers } from "./eaeuTables.ts"
import { buildEaeu } from "./eaeu.ts"
import { buildGnumner } from "./gnumner.ts"
import { makeRandom } from "./random.ts"
import { buildTed } from "./ted.ts"

const random = makeRandom(0x7e4d2611)
const buyers = eaeuBuyers(random)
const ted = buildTed(random, statusPlan(random, 160, { amended: 16, cancelled: 11, closed: 16, closedNoDeadline: 2 }))
const gnumner = buildGnumner(random, statusPlan(random, 100, { amended: 10, cancelled: 7, closed: 10 }))
const eaeu = buildEaeu(random, statusPlan(random, 100, { amended: 10, cancelled: 7, closed: 10 }), buyers)

// Newest publication first, then by id.
const records = [...ted, ...gnumner, ...eaeu].map(decodeRecord).sort((a, b) => {
  const [pa, pb] = [a.publishedAt ?? "", b.publishedAt ?? ""]
  return pa === pb ? (a.id < b.id ? -1 : 1) : pa < pb ? 1 : -1
})
checkSample(records)
const text = `${records.map((r) => JSON.stringify(r)).join("\n")}\n`
if (process.argv.includes("--check")) {
  if (readFileSync(samplePath, "utf8") !== text) {
    console.error(`${samplePath} is out of date: run node scripts/run-ts.mjs scripts/sample-data/generate.ts`)
    process.exit(1)
  }
} else {
  mkdirSync(dirname(samplePath), { recursive: true })
  writeFileSync(samplePath, text)
}
console.log(`${records.length} records (anchor ${utc(anchor)}) -> ${samplePath}`)
console.log(JSON.stringify(summarize(records), null, 1))
