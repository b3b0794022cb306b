// The whole test suite: architecture rules, sample data, format, lint, type-check, then every vitest test (the unit,
// store and e2e projects of vitest.config.ts, in that order). Arguments go to vitest and skip the checks before it,
// e.g. `npm test -- --project unit`. Store tests run against embedded PGlite, and also against PostgreSQL when
// TEST_DATABASE_URL is set.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const started = process.hrtime.bigint()
// No telemetry: tests reach no network beyond the package registries.
process.env["TURBO_TELEMETRY_DISABLED"] = "1"
process.env["DO_NOT_TRACK"] = "1"
const bin = (name) => join(root, "node_modules", ".bin", name)
const run = (title, command, args) => {
  process.stdout.write(`\n== ${title}\n`)
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" })
  if (result.status !== 0) {
    process.stdout.write(`\n${title} failed (exit ${result.status ?? result.signal}).\n`)
    process.exit(result.status ?? 1)
  }
}

const extra = process.argv.slice(2)
if (extra.length === 0) {
  run("architecture", process.execPath, ["scripts/check-architecture.mjs"])
  run("sample data is what its generator makes", process.execPath, [
    "scripts/run-ts.mjs",
    "scripts/sample-data/generate.ts",
    "--check"
  ])
  run("format (prettier, 120 columns)", bin("prettier"), ["--check", "--log-level=warn", "."])
  run("lint", bin("oxlint"), ["--deny-warnings", "packages", "scripts"])
  run("type-check", bin("turbo"), ["run", "check-types", "--output-logs=errors-only"])
  run("type-check scripts", bin("tsc"), ["-p", "scripts"])
}
// The tests that start `tenders serve` run it as an operator does: from its bundle, made again from the sources here.
run("serve's bundle (esbuild)", process.execPath, ["packages/cli/scripts/bundle.mjs"])
if (process.env["TENDERS_CLASSIFICATIONS_DIR"] === undefined)
  process.stdout.write(
    "\nTENDERS_CLASSIFICATIONS_DIR is not set: the test importing the real classification packs is skipped.\n"
  )
if (process.env["TEST_DATABASE_URL"])
  process.stdout.write(`\nStore tests also run against ${process.env["TEST_DATABASE_URL"]}\n`)
else process.stdout.write("\nTEST_DATABASE_URL is not set: store tests run against the embedded store only.\n")
// The dashboard's browser tests drive Debian's Chromium (never a browser download): CHROMIUM_PATH, else
// /usr/bin/chromium, installed from Debian's packages when missing and this user may (root with apt-get).
const chromium = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"
if (!existsSync(chromium)) {
  const canInstall = process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0
  if (canInstall) {
    run("install Chromium from Debian's packages (browser tests)", "sh", [
      "-c",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null"
    ])
  } else {
    process.stdout.write(
      `\nThe dashboard's browser tests need Chromium at ${chromium}: install it (Debian: apt-get install chromium) ` +
        "or set CHROMIUM_PATH to a Chromium or Chrome binary.\n"
    )
    process.exit(1)
  }
}
process.env["CHROMIUM_PATH"] = chromium
mkdirSync(join(root, ".tmp"), { recursive: true })
const report = join(root, ".tmp", "vitest-report.json")
const vitest = spawnSync(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra],
  {
    cwd: root,
    stdio: "inherit"
  }
)
try {
  const results = JSON.parse(readFileSync(report, "utf8"))
  const skipped = results.numPendingTests + results.numTodoTests
  const seconds = Math.round(Number(process.hrtime.bigint() - started) / 1e9)
  const skippedNote = skipped > 0 ? `, ${skipped} skipped` : ""
  const counts = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skippedNote}`
  process.stdout.write(`\n${counts} (${seconds} s)\n`)
} catch {
  process.stdout.write("\nno test report was written\n")
}
process.exit(vitest.status ?? 1)
