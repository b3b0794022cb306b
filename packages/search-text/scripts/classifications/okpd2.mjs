// Generates data/classifications/okpd2.jsonl: OKPD2 (OK 034-2014 (KPES 2008)) with its Russian labels, every level
// from the 2-digit class down to the 9-digit code (the lettered sections are skipped).
//
//   node packages/search-text/scripts/classifications/okpd2.mjs --current okpd_table.tsv [--withdrawn okpd2.csv]
//
// --current   the classifier in force: lines "code<TAB>label" (prog815/okpd2 okpd_table.tsv).
// --withdrawn an older edition as the Moscow open-data CSV (columns Name;global_id;Razdel;Kod;...); its codes that
//             are no longer in force are kept with "obsolete": true, since older notices still carry them.
import { readFileSync } from "node:fs"
import { byCode, cleanLabel, dataFile, fail, okpd2Pattern, parseArgs, writeJsonl } from "./lib.mjs"

const usage = `usage: okpd2.mjs --current okpd_table.tsv [--withdrawn okpd2.csv] [--out okpd2.jsonl]`
const args = parseArgs(process.argv.slice(2), usage)
if (!args.current) fail(usage)

const current = new Map()
for (const line of readFileSync(args.current, "utf8").split(/\r?\n/)) {
  const tab = line.indexOf("\t")
  if (tab < 0) continue
  const code = line.slice(0, tab).trim()
  if (/^[A-Z]$/.test(code)) continue // sections
  if (!okpd2Pattern.test(code)) fail(`malformed OKPD2 code in ${args.current}: ${line}`)
  if (current.has(code)) fail(`duplicate OKPD2 code ${code}`)
  const label = cleanLabel(line.slice(tab + 1))
  if (label === "") fail(`OKPD2 code ${code} has no label`)
  current.set(code, label)
}

/** Semicolon-separated, double-quoted CSV with doubled quotes inside fields. */
function parseCsv(text) {
  const rows = []
  let row = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ";") {
      row.push(field)
      field = ""
    } else if (c === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else if (c !== "\r") field += c
  }
  if (field !== "" || row.length > 0) rows.push([...row, field])
  return rows
}

const rows = [...current].map(([code, label]) => ({ code, label }))
if (args.withdrawn) {
  const [header, ...records] = parseCsv(readFileSync(args.withdrawn, "utf8"))
  const name = header.indexOf("Name")
  const kod = header.indexOf("Kod")
  if (name < 0 || kod < 0) fail(`${args.withdrawn}: expected the columns Name and Kod`)
  for (const record of records) {
    const code = (record[kod] ?? "").trim()
    if (!okpd2Pattern.test(code) || current.has(code)) continue
    rows.push({ code, label: cleanLabel(record[name]), obsolete: true })
  }
}

const codes = new Set(rows.map((row) => row.code))
const parentOf = (code) => (code.length === 2 ? null : code.slice(0, code.length === 12 ? 8 : code.length - 1))
const orphans = rows.filter((row) => parentOf(row.code) !== null && !codes.has(parentOf(row.code).replace(/\.$/, "")))
if (orphans.length > 0) process.stderr.write(`warning: ${orphans.length} codes without their parent\n`)
writeJsonl(args.out ?? dataFile("okpd2.jsonl"), rows.toSorted(byCode))
