import type { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * The scan settings of one transaction: free (the planner's choice), or the indexes' bitmap scans only (no
 * sequential scan, no index scan in an index's order) with the prepared statements' generic plan. A statement whose
 * plan must not rest on the planner's estimate of a rare term runs with the latter: the planner guesses a few rows for
 * a term it has no statistics for, and would look for them by reading every tender (RankedSearch.ts, PgTenderStore
 * `spellings`); its plan is then the same for every word, so it is planned once per connection, not at each bind (a
 * probe of seven levels spent 2-6 ms planning at 1M).
 */
export interface ScanSettings {
  readonly free: (free: boolean) => Effect.Effect<void, SqlError>
}

/** The scan settings of a transaction about to start (free, PostgreSQL's default); changed only when they differ. */
export const makeScanSettings = (sql: PgClient.PgClient): ScanSettings => {
  let current = true
  return {
    free: (free) =>
      free === current
        ? Effect.void
        : sql`SELECT set_config('enable_seqscan', ${free ? "on" : "off"}, true),
            set_config('enable_indexscan', ${free ? "on" : "off"}, true),
            set_config('plan_cache_mode', ${free ? "auto" : "force_generic_plan"}, true)`.pipe(
            Effect.andThen(Effect.sync(() => (current = free)))
          )
  }
}
