import { type SourceCode, SourceRunStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { jsonColumn, utc, UtcText } from "./Sql.ts"

const Run = Schema.Struct({
  id: Schema.NumberFromString,
  startedAt: UtcText,
  finishedAt: Schema.NullOr(UtcText),
  error: Schema.NullOr(Schema.String),
  summary: jsonColumn(Schema.Record(Schema.String, Schema.Number))
})

/** Run history, cursors and the lease-based schedule on PostgreSQL; each claim is one atomic UPDATE. */
export const PgSourceRunStore = Layer.effect(
  SourceRunStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const now = Effect.map(DateTime.now, DateTime.formatIso)

    const startRun = Effect.fn("PgSourceRunStore.startRun")(function* (source: SourceCode, owner: string) {
      const rows = yield* sql<{ id: string }>`INSERT INTO source_runs (source, started_at, owner)
        VALUES (${source}, ${yield* now}::timestamptz, ${owner}) RETURNING id::text AS id`
      return Number(rows[0]?.id ?? 0)
    }, Effect.orDie)

    const finishRun = Effect.fn("PgSourceRunStore.finishRun")(function* (
      runId: number,
      outcome: { readonly error: string | null; readonly summary: Record<string, number> }
    ) {
      yield* sql`UPDATE source_runs SET finished_at = ${yield* now}::timestamptz, ok = ${outcome.error === null},
        error = ${outcome.error}, summary = ${sql.json(outcome.summary)} WHERE id = ${runId}`
    }, Effect.orDie)

    const loadCursor = Effect.fn("PgSourceRunStore.loadCursor")(function* (source: SourceCode) {
      const rows = yield* sql<{ cursor: string }>`SELECT cursor FROM source_cursors WHERE source = ${source}`
      return rows[0]?.cursor ?? null
    }, Effect.orDie)

    const saveCursor = Effect.fn("PgSourceRunStore.saveCursor")(function* (source: SourceCode, cursor: string) {
      yield* sql`INSERT INTO source_cursors (source, cursor, updated_at)
        VALUES (${source}, ${cursor}, ${yield* now}::timestamptz)
        ON CONFLICT (source) DO UPDATE SET cursor = EXCLUDED.cursor, updated_at = EXCLUDED.updated_at`
    }, Effect.orDie)

    const claim = Effect.fn("PgSourceRunStore.claim")(function* (
      source: SourceCode,
      owner: string,
      lease: { readonly until: DateTime.Utc }
    ) {
      const at = yield* now
      yield* sql`INSERT INTO source_schedule (source, next_run_at) VALUES (${source}, ${at}::timestamptz)
        ON CONFLICT DO NOTHING`
      const rows = yield* sql`UPDATE source_schedule
        SET lease_owner = ${owner}, lease_expires_at = ${DateTime.formatIso(lease.until)}::timestamptz
        WHERE source = ${source} AND next_run_at <= ${at}::timestamptz
          AND (lease_owner IS NULL OR lease_expires_at < ${at}::timestamptz)
        RETURNING source`
      return rows.length === 1
    }, Effect.orDie)

    const renew = Effect.fn("PgSourceRunStore.renew")(function* (
      source: SourceCode,
      owner: string,
      until: DateTime.Utc
    ) {
      yield* sql`UPDATE source_schedule SET lease_expires_at = ${DateTime.formatIso(until)}::timestamptz
        WHERE source = ${source} AND lease_owner = ${owner}`
    }, Effect.orDie)

    const release = Effect.fn("PgSourceRunStore.release")(function* (
      source: SourceCode,
      owner: string,
      nextRunAt: DateTime.Utc
    ) {
      yield* sql`UPDATE source_schedule SET lease_owner = NULL, lease_expires_at = NULL,
          next_run_at = ${DateTime.formatIso(nextRunAt)}::timestamptz
        WHERE source = ${source} AND lease_owner = ${owner}`
    }, Effect.orDie)

    // Newest first, ties by the ids, not by the text `id` selected (a bare `ORDER BY id` names that text).
    const runsOf = SqlSchema.findAll({
      Request: Schema.Struct({ source: Schema.String, limit: Schema.Number }),
      Result: Run,
      execute: ({ source, limit }) => sql`SELECT id::text AS id, ${sql.literal(utc("started_at"))} AS "startedAt",
          ${sql.literal(utc("finished_at"))} AS "finishedAt", error, COALESCE(summary, '{}'::jsonb) AS summary
        FROM source_runs WHERE source = ${source} ORDER BY started_at DESC, source_runs.id DESC LIMIT ${limit}`
    })
    const recentRuns = Effect.fn("PgSourceRunStore.recentRuns")(
      (source: SourceCode, limit: number) => runsOf({ source, limit }),
      Effect.orDie
    )

    return SourceRunStore.of({ startRun, finishRun, loadCursor, saveCursor, claim, renew, release, recentRuns })
  })
)
