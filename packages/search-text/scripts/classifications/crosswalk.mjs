// Generates the hand-made CPV 2008 <-> OKPD2 crosswalk of crosswalk-manual.mjs as data:
//   data/classifications/cpv-okpd2.jsonl          its links: {"okpd2", "cpv" (a CPV prefix), "precision"};
//   data/classifications/cpv-okpd2-related.json   the pairs of divisions [okpd2, cpv] a label match may also join.
// The links the Russian labels make (src/Crosswalk.ts) are made at run time from the packs the operator imports.
//
//   node packages/search-text/scripts/classifications/crosswalk.mjs [--okpd2 okpd_table.tsv]
//
// --okpd2  the OKPD2 table in force (code<TAB>label), to check that every linked OKPD2 code exists.
import { readFileSync, writeFileSync } from "node:fs"
import { byCode, dataFile, fail, okpd2Pattern, parseArgs, readJsonl, writeJsonl } from "./lib.mjs"
import { manualLinks, relatedDivisions } from "./crosswalk-manual.mjs"

const usage = `usage: crosswalk.mjs [--okpd2 okpd_table.tsv]`
const args = parseArgs(process.argv.slice(2), usage)
const cpvCodes = readJsonl(dataFile("cpv.jsonl")).map((row) => row.code)
const okpd2Codes =
  args.okpd2 === undefined
    ? undefined
    : new Set(
        readFileSync(args.okpd2, "utf8")
          .split(/\r?\n/)
          .map((line) => line.split("\t")[0].trim())
      )

const seen = new Set()
const rows = []
for (const [okpd2, cpv, precision] of manualLinks) {
  if (!okpd2Pattern.test(okpd2)) fail(`manual link: ${okpd2} is not an OKPD2 code`)
  if (okpd2Codes !== undefined && !okpd2Codes.has(okpd2)) fail(`manual link: no OKPD2 code ${okpd2}`)
  if (!cpvCodes.some((code) => code.startsWith(cpv))) fail(`manual link: no CPV code starts with ${cpv}`)
  if (seen.has(`${okpd2} ${cpv}`)) fail(`manual link: ${okpd2} ${cpv} twice`)
  seen.add(`${okpd2} ${cpv}`)
  rows.push({ okpd2, cpv, precision })
}
rows.sort((a, b) => byCode({ code: a.okpd2 }, { code: b.okpd2 }) || byCode({ code: a.cpv }, { code: b.cpv }))
writeJsonl(dataFile("cpv-okpd2.jsonl"), rows)
const related = dataFile("cpv-okpd2-related.json")
writeFileSync(related, `[\n${relatedDivisions.map((pair) => `  ${JSON.stringify(pair)}`).join(",\n")}\n]\n`)
process.stdout.write(`wrote ${relatedDivisions.length} pairs to ${related}\n`)
