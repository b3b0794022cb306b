import { StorePool } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Schema } from "effect"
import { hasPoolUsage, poolUsageKey } from "./embedded/PoolUse.ts"

const UsageRow = Schema.Struct({ inUse: Schema.Number, idle: Schema.Number })

/**
 * This process's connections to its store. The embedded store's client counts its own (`PoolUse`); on PostgreSQL the
 * server says, by the application name this process's pools connect with (`applicationName`): in use (running or in
 * a transaction) or idle, the scrape's own connection left out.
 */
export const PgStorePool = Layer.effect(
  StorePool,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    if (hasPoolUsage(sql)) return StorePool.of({ usage: Effect.sync(() => sql[poolUsageKey]()) })
    const name = sql.config.applicationName ?? ""
    const usage = sql`SELECT count(*) FILTER (WHERE state <> 'idle')::int AS "inUse",
        count(*) FILTER (WHERE state = 'idle')::int AS idle
      FROM pg_stat_activity WHERE application_name = ${name} AND pid <> pg_backend_pid()`.pipe(
      Effect.flatMap((rows) => Schema.decodeUnknownEffect(UsageRow)(rows[0])),
      Effect.withSpan("PgStorePool.usage"),
      Effect.orDie
    )
    return StorePool.of({ usage })
  })
)
