import { DateTime, Effect } from "effect"
import { changeOf, resolveProcedure, type TenderChange } from "../Lifecycle.ts"
import { type NoticeResolver, NoticeStore } from "../ports/NoticeStore.ts"
import type { ParseResult } from "../SourceNotice.ts"
import { effectiveStatus } from "../Open.ts"

/** What an ingestion run did, per kind of change. */
export type IngestSummary = Record<Exclude<TenderChange, "updated">, number> & {
  readonly updated: number
  readonly rejected: number
}

/**
 * The lifecycle rules as the store applies them, as of `now`: a tender whose deadline has passed is closed
 * even when no notice says so (the same rule the deadline sweep applies).
 */
export const lifecycleResolverAt =
  (now: DateTime.Utc): NoticeResolver =>
  (notices, before, incoming) => {
    const resolved = resolveProcedure(notices)
    const tender = resolved === undefined ? undefined : { ...resolved, status: effectiveStatus(resolved, now) }
    return { tender, change: tender === undefined ? "unchanged" : changeOf(before, tender, incoming) }
  }

const empty = (): Record<TenderChange | "rejected", number> => ({
  new: 0,
  amended: 0,
  cancelled: 0,
  closed: 0,
  updated: 0,
  unchanged: 0,
  rejected: 0
})

/** Applies parsed source payloads to the store and counts new / amended / cancelled / closed / unchanged / rejected. */
export const ingestNotices = Effect.fn("ingestNotices")(function* (results: ReadonlyArray<ParseResult>) {
  const store = yield* NoticeStore
  const counts = empty()
  for (const result of results) {
    counts.rejected += result.rejected.length
    const changes = yield* store.applyNotices(result.notices, lifecycleResolverAt(yield* DateTime.now))
    for (const change of changes) counts[change] += 1
  }
  const summary: IngestSummary = counts
  return summary
})
