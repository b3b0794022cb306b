import { SourceCode, SourceStatusStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"

const Summary = Schema.Struct({
  code: SourceCode,
  lastSuccessAt: Schema.NullOr(Schema.String),
  lastFailureAt: Schema.NullOr(Schema.String),
  runningSince: Schema.NullOr(Schema.String)
})
const decode = Schema.decodeUnknownEffect(Schema.Array(Summary))
const instant = (iso: string | null) => (iso === null ? null : DateTime.makeUnsafe(iso))

/** Source run history summarised per source, from the `source_runs` table. */
export const PgSourceStatusStore = Layer.effect(
  SourceStatusStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const fmt = (column: string) =>
      sql.literal(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)
    const summaries = Effect.gen(function* () {
      // A run that never finished counts as running only if nothing finished after it started (a crashed
      // run is superseded by the next one).
      const rows = yield* sql`SELECT r.source AS code,
          ${fmt("max(r.finished_at) FILTER (WHERE r.ok)")} AS "lastSuccessAt",
          ${fmt("max(r.finished_at) FILTER (WHERE NOT r.ok)")} AS "lastFailureAt",
          ${fmt("max(r.started_at) FILTER (WHERE r.finished_at IS NULL AND r.started_at > COALESCE(l.done, '-infinity'::timestamptz))")} AS "runningSince"
        FROM source_runs r
        LEFT JOIN (SELECT source, max(finished_at) AS done FROM source_runs GROUP BY source) l ON l.source = r.source
        GROUP BY r.source`
      const decoded = yield* decode(rows)
      return decoded.map((r) => ({
        code: r.code,
        lastSuccessAt: instant(r.lastSuccessAt),
        lastFailureAt: instant(r.lastFailureAt),
        runningSince: instant(r.runningSince)
      }))
    }).pipe(Effect.orDie, Effect.withSpan("PgSourceStatusStore.summaries"))
    return SourceStatusStore.of({ summaries })
  })
)
