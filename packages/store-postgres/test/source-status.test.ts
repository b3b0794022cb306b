import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { SourceStatusStore } from "@tenders/core"
import { DateTime, Effect } from "effect"
import { summariesStatement } from "../src/PgSourceStatusStore.ts"
import { backends } from "./backends.ts"
import { explainAnalyzed, rowsRead } from "./plans.ts"

/** A run of `source` started `startedHoursAgo`, finished (ok or not) `finished.hoursAgo`, or never finished. */
const run = (source: string, startedHoursAgo: number, finished?: { readonly hoursAgo: number; readonly ok: boolean }) =>
  Effect.flatMap(
    PgClient.PgClient,
    (sql) => sql`INSERT INTO source_runs (source, started_at, finished_at, ok)
      VALUES (${source}, now() - make_interval(hours => ${startedHoursAgo}),
        now() - ${finished === undefined ? null : finished.hoursAgo}::int * interval '1 hour', ${finished?.ok ?? null})`
  )

/** What the summary says of each source, as epoch seconds rounded down (or null), in the order of its codes. */
const summarised = Effect.gen(function* () {
  const summaries = yield* (yield* SourceStatusStore).summaries
  const seconds = (at: DateTime.Utc | null) => (at === null ? null : Math.floor(DateTime.toEpochMillis(at) / 1000))
  return summaries.map((summary) => ({
    code: summary.code,
    lastSuccessAt: seconds(summary.lastSuccessAt),
    lastFailureAt: seconds(summary.lastFailureAt),
    runningSince: seconds(summary.runningSince)
  }))
})

/**
 * The summary by its definition: every run of each source grouped (what the statement read before the indexes), a
 * run that never finished counted as running only if nothing of its source finished after it started.
 */
const byDefinition = Effect.flatMap(
  PgClient.PgClient,
  (sql) => sql<{
    readonly code: string
    readonly lastSuccessAt: number | null
    readonly lastFailureAt: number | null
    readonly runningSince: number | null
  }>`SELECT r.source AS code,
      floor(extract(epoch FROM max(r.finished_at) FILTER (WHERE r.ok)))::int AS "lastSuccessAt",
      floor(extract(epoch FROM max(r.finished_at) FILTER (WHERE NOT r.ok)))::int AS "lastFailureAt",
      floor(extract(epoch FROM max(r.started_at) FILTER (WHERE r.finished_at IS NULL
        AND r.started_at > COALESCE(l.done, '-infinity'))))::int AS "runningSince"
    FROM source_runs r
    LEFT JOIN (SELECT source, max(finished_at) AS done FROM source_runs GROUP BY source) l ON l.source = r.source
    GROUP BY r.source ORDER BY r.source`
)

for (const [name, makeLayer] of backends()) {
  describe(`the sources' health read from the run history on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("each source's last success, last failure and the run still going, as the history defines them", () =>
        Effect.gen(function* () {
          assert.deepStrictEqual(yield* summarised, [])
          // ted: a success, a later failure, then a run still going.
          yield* run("ted", 4, { hoursAgo: 3, ok: true })
          yield* run("ted", 3, { hoursAgo: 2, ok: false })
          yield* run("ted", 1)
          // gnumner: a run that crashed (never finished), superseded by a later run that finished.
          yield* run("gnumner", 6)
          yield* run("gnumner", 5, { hoursAgo: 4, ok: true })
          const now = Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000)
          const summaries = yield* summarised
          assert.deepStrictEqual(
            summaries.map((summary) => summary.code),
            ["gnumner", "ted"]
          )
          const [gnumner, ted] = summaries
          assert.closeTo(ted?.lastSuccessAt ?? 0, now - 3 * 3600, 60)
          assert.closeTo(ted?.lastFailureAt ?? 0, now - 2 * 3600, 60)
          assert.closeTo(ted?.runningSince ?? 0, now - 3600, 60)
          assert.closeTo(gnumner?.lastSuccessAt ?? 0, now - 4 * 3600, 60)
          assert.strictEqual(gnumner?.lastFailureAt, null)
          assert.strictEqual(gnumner?.runningSince, null)
          assert.deepStrictEqual(summaries, [...(yield* byDefinition)])
        })
      )

      it.effect("reads a few index entries per source, not a year of runs, and says what the whole history says", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          // A year of hourly runs of eaeu, one in seven failed, a few never finished, and one going now.
          yield* sql`INSERT INTO source_runs (source, started_at, finished_at, ok)
            SELECT 'eaeu', now() - make_interval(hours => i),
              CASE WHEN i % 997 = 0 THEN NULL ELSE now() - make_interval(hours => i) + interval '2 minutes' END,
              CASE WHEN i % 997 = 0 THEN NULL ELSE i % 7 <> 0 END
            FROM generate_series(2, 8760) AS i`
          yield* run("eaeu", 0)
          yield* sql`ANALYZE source_runs`
          assert.deepStrictEqual(yield* summarised, [...(yield* byDefinition)])
          const read = rowsRead(yield* explainAnalyzed(sql, summariesStatement(sql)), "source_runs")
          assert.isAbove(read, 0)
          assert.isAtMost(read, 60)
        })
      )
    })
  })
}
