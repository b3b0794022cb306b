import { DateTime, Effect, Layer } from "effect"
import type { SourceRunSummary } from "../Health.ts"
import { SourceRunStore } from "../ports/SourceRunStore.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"
import type { SourceCode } from "../Source.ts"
import { formatUtc } from "../Time.ts"
import { MemoryDb, type MemoryRun, type MemoryState, nextSeq } from "./MemoryDb.ts"

const latest = (instants: ReadonlyArray<DateTime.Utc>): DateTime.Utc | null =>
  instants.reduce<DateTime.Utc | null>((a, b) => (a === null || DateTime.isLessThan(a, b) ? b : a), null)

/** The health summary of one source's runs, as the SQL store computes it. */
const summaryOf = (source: SourceCode, runs: ReadonlyArray<MemoryRun>): SourceRunSummary => {
  const done = latest(runs.flatMap((r) => (r.finishedAt === null ? [] : [r.finishedAt])))
  const finished = (ok: boolean) =>
    latest(runs.flatMap((r) => (r.finishedAt !== null && (r.error === null) === ok ? [r.finishedAt] : [])))
  return {
    code: source,
    lastSuccessAt: finished(true),
    lastFailureAt: finished(false),
    // A run that never finished counts as running only if nothing finished after it started.
    runningSince: latest(
      runs.flatMap((r) =>
        r.finishedAt === null && (done === null || DateTime.isLessThan(done, r.startedAt)) ? [r.startedAt] : []
      )
    )
  }
}

const summaries = (db: MemoryState) => {
  const sources = [...new Set(db.runs.map((r) => r.source))]
  return sources.map((source) =>
    summaryOf(
      source,
      db.runs.filter((r) => r.source === source)
    )
  )
}

/** Run history, cursors and the lease-based schedule over the shared in-memory state, and health from it. */
export const SourceRunStoreOnMemory = Layer.mergeAll(
  Layer.effect(
    SourceRunStore,
    Effect.gen(function* () {
      const db = yield* MemoryDb
      const slot = (source: SourceCode, now: DateTime.Utc) => {
        const found = db.schedule.get(source)
        if (found !== undefined) return found
        const fresh = { nextRunAt: now, owner: null, leaseUntil: null }
        db.schedule.set(source, fresh)
        return fresh
      }
      return SourceRunStore.of({
        startRun: (source, owner) =>
          Effect.map(DateTime.now, (startedAt) => {
            const id = nextSeq(db)
            db.runs.push({ id, source, owner, startedAt, finishedAt: null, error: null, summary: {} })
            return id
          }),
        finishRun: (runId, outcome) =>
          Effect.map(DateTime.now, (now) => {
            const run = db.runs.find((r) => r.id === runId)
            if (run === undefined) return
            run.finishedAt = now
            run.error = outcome.error
            run.summary = outcome.summary
          }),
        loadCursor: (source) => Effect.sync(() => db.cursors.get(source) ?? null),
        saveCursor: (source, cursor) => Effect.sync(() => void db.cursors.set(source, cursor)),
        claim: (source, owner, lease) =>
          Effect.map(DateTime.now, (now) => {
            const s = slot(source, now)
            const free = s.owner === null || (s.leaseUntil !== null && DateTime.isLessThan(s.leaseUntil, now))
            if (!DateTime.isLessThanOrEqualTo(s.nextRunAt, now) || !free) return false
            s.owner = owner
            s.leaseUntil = lease.until
            return true
          }),
        renew: (source, owner, until) =>
          Effect.sync(() => {
            const s = db.schedule.get(source)
            if (s !== undefined && s.owner === owner) s.leaseUntil = until
          }),
        release: (source, owner, nextRunAt) =>
          Effect.sync(() => {
            const s = db.schedule.get(source)
            if (s === undefined || s.owner !== owner) return
            s.owner = null
            s.leaseUntil = null
            s.nextRunAt = nextRunAt
          }),
        recentRuns: (source, limit) =>
          Effect.sync(() =>
            db.runs
              .filter((r) => r.source === source)
              .toReversed()
              .slice(0, limit)
              .map((r) => ({
                id: r.id,
                startedAt: formatUtc(r.startedAt),
                finishedAt: r.finishedAt === null ? null : formatUtc(r.finishedAt),
                error: r.error,
                summary: r.summary
              }))
          )
      })
    })
  ),
  Layer.effect(
    SourceStatusStore,
    Effect.gen(function* () {
      const db = yield* MemoryDb
      return SourceStatusStore.of({ summaries: Effect.sync(() => summaries(db)) })
    })
  )
)
