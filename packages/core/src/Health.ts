import { DateTime, Duration, Schema } from "effect"
import { SourceCode, sourceCodes } from "./Source.ts"
import { UtcTimestamp, formatUtc } from "./Time.ts"

/** Health of one data source. */
export const SourceHealthStatus = Schema.Literals(["ok", "error", "never", "stalled"])
export type SourceHealthStatus = typeof SourceHealthStatus.Type

/** The health report of `GET /health`. */
export const HealthReport = Schema.Struct({
  status: Schema.Literals(["ok", "degraded"]),
  sources: Schema.Array(
    Schema.Struct({
      code: SourceCode,
      status: SourceHealthStatus,
      lastSuccessAt: Schema.NullOr(UtcTimestamp)
    })
  )
}).annotate({ identifier: "HealthReport" })
export type HealthReport = typeof HealthReport.Type

/** What the run history says about one source. */
export interface SourceRunSummary {
  readonly code: SourceCode
  readonly lastSuccessAt: DateTime.Utc | null
  readonly lastFailureAt: DateTime.Utc | null
  readonly runningSince: DateTime.Utc | null
}

/** How long a source may go without a success, or a run may go on, before it is `stalled`: three intervals. */
const stalledAfter = (interval: Duration.Duration) => Duration.times(interval, 3)

const olderThan = (at: DateTime.Utc, age: Duration.Duration, now: DateTime.Utc) =>
  DateTime.toEpochMillis(now) - DateTime.toEpochMillis(at) > Duration.toMillis(age)

/** never / ok / error / stalled for one source (DESIGN §4 "Source health"). */
export const sourceStatus = (
  run: SourceRunSummary | undefined,
  interval: Duration.Duration,
  now: DateTime.Utc
): SourceHealthStatus => {
  const limit = stalledAfter(interval)
  if (run === undefined) return "never"
  if (run.runningSince !== null && olderThan(run.runningSince, limit, now)) return "stalled"
  const lastFailure = run.lastFailureAt === null ? -Infinity : DateTime.toEpochMillis(run.lastFailureAt)
  const lastSuccess = run.lastSuccessAt === null ? -Infinity : DateTime.toEpochMillis(run.lastSuccessAt)
  if (run.lastFailureAt !== null && lastFailure >= lastSuccess) return "error"
  if (run.lastSuccessAt === null) return "never"
  return olderThan(run.lastSuccessAt, limit, now) ? "stalled" : "ok"
}

/**
 * The first instant after `now` at which a source's status could change with no run written (epoch milliseconds;
 * Infinity when none can): a run going, or the last success, older than `stalledAfter` from then on (`sourceStatus`
 * turns `stalled` just after it). Every other change of status is a run's write.
 */
export const statusChangesAt = (
  runs: ReadonlyArray<SourceRunSummary>,
  intervals: Record<SourceCode, Duration.Duration>,
  now: DateTime.Utc
): number => {
  const from = DateTime.toEpochMillis(now)
  let first = Infinity
  for (const run of runs) {
    const limit = Duration.toMillis(stalledAfter(intervals[run.code]))
    for (const since of [run.runningSince, run.lastSuccessAt]) {
      const turns = since === null ? Infinity : DateTime.toEpochMillis(since) + limit
      if (turns >= from) first = Math.min(first, turns)
    }
  }
  return first
}

/** The full report: the three sources in fixed order; `ok` only when all are `ok`. */
export const healthReport = (
  runs: ReadonlyArray<SourceRunSummary>,
  intervals: Record<SourceCode, Duration.Duration>,
  now: DateTime.Utc
): HealthReport => {
  const sources = sourceCodes.map((code) => {
    const run = runs.find((r) => r.code === code)
    return {
      code,
      status: sourceStatus(run, intervals[code], now),
      lastSuccessAt: run?.lastSuccessAt ? formatUtc(run.lastSuccessAt) : null
    }
  })
  return { status: sources.every((s) => s.status === "ok") ? "ok" : "degraded", sources }
}

/** Codes of sources whose data may be stale (`error` or `stalled`). */
export const degradedSources = (report: HealthReport): ReadonlyArray<SourceCode> =>
  report.sources.filter((s) => s.status === "error" || s.status === "stalled").map((s) => s.code)
