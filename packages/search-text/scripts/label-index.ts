// Regenerates data/classifications/cpv-label-index.jsonl (from cpv.jsonl and cpv-hy.jsonl) and compound-parts.json
// (from cpv.jsonl) with the analysis' own stemming (run after
// changing cpv.jsonl or the stemming; a test checks the file is what this makes):
//   sh scripts/with-node.sh node scripts/run-ts.mjs packages/search-text/scripts/label-index.ts
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { labelIndexLines } from "../src/Labels.ts"
import { compoundPartsOf, compoundPartsText } from "../src/Compounds.ts"
import { dataDirectory, readCpv, readStopWords, shippedLabels } from "../src/LexiconFiles.ts"

const file = join(dataDirectory, "classifications", "cpv-label-index.jsonl")
const labels = shippedLabels(readStopWords())
writeFileSync(file, labelIndexLines(labels))
process.stdout.write(`${file}: ${labels.length} label matches\n`)

const partsFile = join(dataDirectory, "classifications", "compound-parts.json")
const parts = compoundPartsOf(readCpv(), readStopWords())
writeFileSync(partsFile, compoundPartsText(parts))
process.stdout.write(`${partsFile}: ${Object.values(parts).flat().length} compound parts\n`)
