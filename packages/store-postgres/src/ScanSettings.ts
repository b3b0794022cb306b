import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Option } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * The settings a statement whose plan must not rest on the planner's estimate of a rare term runs with: the indexes'
 * bitmap scans only (no sequential scan, no index scan in an index's order), with the prepared statements' generic
 * plan. The planner guesses a few rows for a term it has no statistics for, and would look for them by reading every
 * tender (NearestTenders.ts, PgTenderStore `spellings`); the plan is then the same for every word, so it is planned
 * once per connection, not at each bind (a probe of seven levels spent 2-6 ms planning at 1M).
 */
export const bitmapOnly = {
  enable_seqscan: "off",
  enable_indexscan: "off",
  plan_cache_mode: "force_generic_plan"
} as const

/**
 * On PostgreSQL, a pool of its own whose sessions have those settings (SessionPool.ts): a search's bitmap statements
 * run there, its others on the main pool, each in one round trip. The embedded store, one session behind its socket
 * server, has none (`ScanSettings` then sets them in a transaction).
 */
export class BitmapClient extends Context.Service<BitmapClient, PgClient.PgClient>()(
  "@tenders/store-postgres/BitmapClient"
) {}

/**
 * The scan settings of one search: bitmap-only (`bitmapOnly`), or PostgreSQL's defaults, the planner choosing the
 * plan. A statement runs after the settings it needs were set: `indexOnly`, then the statement written with
 * `indexOnlySql`; `plannerChooses`, then the statement on the main client. With a bitmap pool there is nothing to set
 * (`indexOnlySql` is the bitmap pool's client); without one, the settings are changed in the transaction (`scoped`)
 * when they differ, and every statement is on the main client.
 */
export interface ScanSettings {
  readonly indexOnly: Effect.Effect<void, SqlError>
  readonly plannerChooses: Effect.Effect<void, SqlError>
  readonly indexOnlySql: PgClient.PgClient
}

/** A search's scan settings and the scope its statements run in (a transaction without a bitmap pool). */
export const makeScanSettings = (sql: PgClient.PgClient, bitmap: Option.Option<PgClient.PgClient>) => {
  if (Option.isSome(bitmap)) {
    const settings: ScanSettings = { indexOnly: Effect.void, plannerChooses: Effect.void, indexOnlySql: bitmap.value }
    return { settings, scoped: <A, E, R>(effect: Effect.Effect<A, E, R>) => effect }
  }
  return { settings: transactionSettings(sql), scoped: sql.withTransaction }
}

/** Scan settings set in the transaction about to start (PostgreSQL's default: the planner chooses) when they differ. */
export const transactionSettings = (sql: PgClient.PgClient): ScanSettings => {
  let plannerChose = true
  const set = (plannerChooses: boolean) =>
    Effect.suspend(() =>
      plannerChooses === plannerChose
        ? Effect.void
        : sql`SELECT set_config('enable_seqscan', ${plannerChooses ? "on" : "off"}, true),
            set_config('enable_indexscan', ${plannerChooses ? "on" : "off"}, true),
            set_config('plan_cache_mode', ${plannerChooses ? "auto" : "force_generic_plan"}, true)`.pipe(
            Effect.andThen(Effect.sync(() => (plannerChose = plannerChooses)))
          )
    )
  return { indexOnly: set(false), plannerChooses: set(true), indexOnlySql: sql }
}
