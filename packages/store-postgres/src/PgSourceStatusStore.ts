import { SourceCode, SourceStatusStore } from "@tenders/core"
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

const running =
  "max(r.started_at) FILTER (WHERE r.finished_at IS NULL AND r.started_at > COALESCE(l.done, '-infinity'))"

/** Source run history summarised per source, from the `source_runs` table. */
export const PgSourceStatusStore = Layer.effect(
  SourceStatusStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    // A run that never finished counts as running only if nothing finished after it started (a crashed run is
    // superseded by the next one).
    const summaries = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Summary,
      execute: () => sql`SELECT r.source AS code,
          ${sql.literal(utc("max(r.finished_at) FILTER (WHERE r.ok)"))} AS "lastSuccessAt",
          ${sql.literal(utc("max(r.finished_at) FILTER (WHERE NOT r.ok)"))} AS "lastFailureAt",
          ${sql.literal(utc(running))} AS "runningSince"
        FROM source_runs r
        LEFT JOIN (SELECT source, max(finished_at) AS done FROM source_runs GROUP BY source) l ON l.source = r.source
        GROUP BY r.source`
    })(undefined).pipe(Effect.orDie, Effect.withSpan("PgSourceStatusStore.summaries"))
    return SourceStatusStore.of({ summaries })
  })
)
