import { DateTime } from "effect"
import type { TenderRecord, TenderStatus } from "./Tender.ts"

/** The statuses of a tender that still takes bids, as long as its deadline has not passed. */
export const liveStatuses = ["open", "amended"] as const satisfies ReadonlyArray<TenderStatus>

const isLive = (status: TenderStatus): boolean => status === "open" || status === "amended"

/** Whether a deadline (null: none) has passed at `now`. */
export const deadlinePassed = (deadline: string | null, now: DateTime.Utc): boolean =>
  deadline !== null && DateTime.toEpochMillis(DateTime.makeUnsafe(deadline)) <= DateTime.toEpochMillis(now)

/** The status a reader sees: an open or amended tender whose deadline has passed is closed. */
export const effectiveStatus = (record: Pick<TenderRecord, "status" | "deadline">, now: DateTime.Utc): TenderStatus =>
  isLive(record.status) && deadlinePassed(record.deadline, now) ? "closed" : record.status

/**
 * "Open" for search, watchlists and alerts: open or amended, deadline null or in the future. The store's SQL
 * states the same rule once (store-postgres OpenSql.ts) from `liveStatuses`.
 */
export const isOpen = (record: Pick<TenderRecord, "status" | "deadline">, now: DateTime.Utc): boolean =>
  isLive(record.status) && !deadlinePassed(record.deadline, now)
