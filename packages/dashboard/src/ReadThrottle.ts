import { type AccountId, takeUse } from "@tenders/core"
import { Duration, type Effect } from "effect"
import type { RateLimiter } from "effect/persistence"

/**
 * Searches and live counts one account may make a minute in the dashboard. They do not count against the API's
 * monthly quota (the dashboard is how people use the product); this keeps a session from being an unmetered API.
 */
export const dashboardReads = { name: "dashboard-reads", limit: 60, window: Duration.minutes(1) } as const

/** The seconds an account must wait before its next dashboard read, or 0 (the read is then counted). */
export const throttleReads = (account: AccountId): Effect.Effect<number, never, RateLimiter.RateLimiter> =>
  takeUse(dashboardReads, account)
