// Shared helpers of the classification generators (plain Node, no dependencies).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"

export const dataDir = resolve(import.meta.dirname, "../../data/classifications")

/** `--name value` pairs of the command line; `--help` prints the usage and exits. */
export function parseArgs(argv, usage) {
  const args = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(usage + "\n")
      process.exit(0)
    }
    if (!arg.startsWith("--") || i + 1 >= argv.length) fail(`unexpected argument ${arg}\n${usage}`)
    args[arg.slice(2)] = argv[++i]
  }
  return args
}

export function fail(message) {
  process.stderr.write(message + "\n")
  process.exit(1)
}

export function readJsonl(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
}

export function writeJsonl(path, rows) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join("\n") + "\n")
  process.stdout.write(`wrote ${rows.length} lines to ${path}\n`)
}

export const dataFile = (name) => join(dataDir, name)

/** One line of text: no control characters, single spaces, no stray quotes or tabs around it. */
export function cleanLabel(text) {
  const printable = Array.from(text, (c) => (c.charCodeAt(0) < 32 || (c >= "\u007f" && c <= "\u009f") ? " " : c))
  return printable
    .join("")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^"\s*(.*?)\s*"$/, "$1")
    .trim()
}

/** OKPD2 codes as OKPD2 writes them: "42", "42.1", "42.11", "42.11.1", "42.11.10", "42.11.10.110". */
export const okpd2Pattern = /^\d\d(\.\d(\d(\.\d(\d(\.\d{3})?)?)?)?)?$/

/** CPV codes without the check digit. */
export const cpvPattern = /^\d{8}$/

export const byCode = (a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
