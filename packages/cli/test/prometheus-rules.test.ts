import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as Metrics from "@tenders/core"
import { Metric } from "effect"
import { describe, expect, it } from "vitest"

// The alerting rules docs/operations.md offers operators: promtool checks them and runs their unit tests (each alert
// fires on the series that should raise it, and not on the others), and every family they read is one the server
// exports, so a renamed metric cannot leave an alert that never fires.
const folder = join(import.meta.dirname, "..", "..", "..", "docs", "prometheus")
const rules = join(folder, "tenders-rules.yml")

const hasPromtool = () => spawnSync("promtool", ["--version"], { encoding: "utf8" }).status === 0

const exported = new Set(
  Object.values(Metrics)
    .filter((value) => Metric.isMetric(value))
    .map((metric) => metric.id)
)

describe("the Prometheus alerting rules", () => {
  it("read only families the server exports", () => {
    const used = new Set(
      [...readFileSync(rules, "utf8").matchAll(/\btenders_[a-z_]+\b/gu)].map(([name]) =>
        name.replace(/_(bucket|count|sum)$/u, "")
      )
    )
    expect(used.size).toBeGreaterThan(5)
    for (const name of used) expect(exported, name).toContain(name)
  })

  it("pass promtool check rules and their unit tests", (context) => {
    if (!hasPromtool()) {
      // CI installs it (.ci/run): there it is a failure, never a skip.
      if (process.env["CI"] !== undefined && process.env["CI"] !== "") throw new Error("promtool is not installed")
      context.skip("promtool is not installed (apt-get install prometheus)")
      return
    }
    const checked = spawnSync("promtool", ["check", "rules", rules], { encoding: "utf8" })
    expect(checked.status, checked.stdout + checked.stderr).toBe(0)
    const tested = spawnSync("promtool", ["test", "rules", "tenders-rules.test.yml"], { cwd: folder, encoding: "utf8" })
    expect(tested.status, tested.stdout + tested.stderr).toBe(0)
  })
})
