import { SourceCode, sourceCodes, SourceStatusStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { utc, UtcInstant } from "./Sql.ts"

const Summary = Schema.Struct({
  code: SourceCode,
  lastSuccessAt: Schema.NullOr(UtcInstant),
  lastFailureAt: Schema.NullOr(UtcInstant),
  runningSince: Schema.NullOr(UtcInstant)
})

/** The start of a source's newest unfinished run, if it started after its last finished one (`o`: its outcomes). */
const running = `(SELECT max(r.started_at) FROM source_runs r WHERE r.source = s.code AND r.finished_at IS NULL
  AND r.started_at > COALESCE(GREATEST(o.success, o.failure), '-infinity'))`

/**
 * Source run history summarised per source, from the `source_runs` table: for each source with a run, its last
 * success and last failure (the newest entry of `source_runs_outcome_idx` for each outcome), and the start of a run
 * that has not finished, when nothing finished after it started (a crashed run is superseded by the next one; from
 * `source_runs_unfinished_idx`). A few index entries per source, however long the history.
 */
export const summariesStatement = (sql: PgClient.PgClient) => {
  const sources = sql.join(", ", false)(sourceCodes.map((code) => sql`(${code})`))
  return sql`SELECT s.code, ${sql.literal(utc("o.success"))} AS "lastSuccessAt",
      ${sql.literal(utc("o.failure"))} AS "lastFailureAt", ${sql.literal(utc(running))} AS "runningSince"
    FROM (VALUES ${sources}) AS s(code)
    CROSS JOIN LATERAL (SELECT
      (SELECT max(r.finished_at) FROM source_runs r WHERE r.source = s.code AND r.ok) AS success,
      (SELECT max(r.finished_at) FROM source_runs r WHERE r.source = s.code AND NOT r.ok) AS failure) o
    WHERE EXISTS (SELECT 1 FROM source_runs r WHERE r.source = s.code)
    ORDER BY s.code`
}

/** The sources' run history summarised (`summariesStatement`) on PostgreSQL. */
export const PgSourceStatusStore = Layer.effect(
  SourceStatusStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const summaries = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Summary,
      execute: () => summariesStatement(sql)
    })(undefined).pipe(Effect.orDie, Effect.withSpan("PgSourceStatusStore.summaries"))
    return SourceStatusStore.of({ summaries })
  })
)
