import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import { healthReport } from "../src/index.ts"

const now = DateTime.makeUnsafe("2026-11-21T12:00:00Z")
const hour = Duration.hours(1)
const intervals = { ted: hour, gnumner: hour, eaeu: hour }
const at = (iso: string) => DateTime.makeUnsafe(iso)

describe("source health", () => {
  it("reports never / ok / error / stalled per source and degraded unless all are ok", () => {
    const report = healthReport(
      [
        { code: "ted", lastSuccessAt: at("2026-11-21T11:30:00Z"), lastFailureAt: null, runningSince: null },
        {
          code: "gnumner",
          lastSuccessAt: at("2026-11-21T11:00:00Z"),
          lastFailureAt: at("2026-11-21T11:50:00Z"),
          runningSince: null
        }
      ],
      intervals,
      now
    )
    assert.deepStrictEqual(
      report.sources.map((s) => s.status),
      ["ok", "error", "never"]
    )
    assert.strictEqual(report.status, "degraded")
    const stalled = healthReport(
      [{ code: "ted", lastSuccessAt: at("2026-11-21T08:00:00Z"), lastFailureAt: null, runningSince: null }],
      intervals,
      now
    )
    assert.strictEqual(stalled.sources[0]?.status, "stalled")
    const allOk = healthReport(
      ["ted", "gnumner", "eaeu"].map((code) => ({
        code: code as "ted",
        lastSuccessAt: at("2026-11-21T11:59:00Z"),
        lastFailureAt: null,
        runningSince: null
      })),
      intervals,
      now
    )
    assert.strictEqual(allOk.status, "ok")
  })

  it("calls a source stalled when a run has been going for longer than three intervals", () => {
    const running = (since: string) =>
      healthReport(
        [{ code: "ted", lastSuccessAt: at("2026-11-21T11:30:00Z"), lastFailureAt: null, runningSince: at(since) }],
        intervals,
        now
      ).sources[0]?.status
    assert.strictEqual(running("2026-11-21T09:30:00Z"), "ok")
    assert.strictEqual(running("2026-11-21T08:59:00Z"), "stalled")
  })
})
