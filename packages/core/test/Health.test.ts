import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import { healthReport, statusChangesAt } from "../src/index.ts"

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

  it("says when a source's status could next change with no run written: 3 intervals after a run or success", () => {
    const ms = (iso: string) => DateTime.toEpochMillis(at(iso))
    const changesAt = (runs: Parameters<typeof statusChangesAt>[0]) => statusChangesAt(runs, intervals, now)
    // Nothing has run, or only failed: nothing changes by time.
    assert.strictEqual(changesAt([]), Infinity)
    assert.strictEqual(
      changesAt([{ code: "ted", lastSuccessAt: null, lastFailureAt: at("2026-11-21T11:00:00Z"), runningSince: null }]),
      Infinity
    )
    // Succeeded at 11:30 (every hour): stalled after 14:30.
    const ok = {
      code: "ted" as const,
      lastSuccessAt: at("2026-11-21T11:30:00Z"),
      lastFailureAt: null,
      runningSince: null
    }
    assert.strictEqual(changesAt([ok]), ms("2026-11-21T14:30:00Z"))
    // A run going since 10:00 turns it stalled first (after 13:00); one older than three intervals already did.
    assert.strictEqual(changesAt([{ ...ok, runningSince: at("2026-11-21T10:00:00Z") }]), ms("2026-11-21T13:00:00Z"))
    assert.strictEqual(changesAt([{ ...ok, runningSince: at("2026-11-21T08:00:00Z") }]), ms("2026-11-21T14:30:00Z"))
    // The soonest of the sources, each by its own interval: one already stalled changes nothing more.
    const gnumner = { ...ok, code: "gnumner" as const, lastSuccessAt: at("2026-11-21T07:00:00Z") }
    assert.strictEqual(changesAt([ok, gnumner]), ms("2026-11-21T14:30:00Z"))
    assert.strictEqual(
      statusChangesAt([ok, gnumner], { ...intervals, gnumner: Duration.hours(2) }, now),
      ms("2026-11-21T13:00:00Z")
    )
    // At the instant itself, the change is still ahead (stalled is "older than").
    assert.strictEqual(statusChangesAt([ok], intervals, at("2026-11-21T14:30:00Z")), ms("2026-11-21T14:30:00Z"))
    assert.strictEqual(statusChangesAt([ok], intervals, at("2026-11-21T14:30:01Z")), Infinity)
  })
})
