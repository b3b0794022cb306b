import { DateTime, Duration, Effect, Metric, Stream } from "effect"
import { seriesOf, sourceNotices, sourceRuns } from "../Metrics.ts"
import type { FeedStart, SourceFeed } from "../ports/SourceFeed.ts"
import { SourceRunStore } from "../ports/SourceRunStore.ts"
import { ingestNotices, type IngestSummary } from "./IngestNotices.ts"

const zero: IngestSummary = { new: 0, amended: 0, cancelled: 0, closed: 0, updated: 0, unchanged: 0, rejected: 0 }

const add = (a: IngestSummary, b: IngestSummary): IngestSummary => ({
  new: a.new + b.new,
  amended: a.amended + b.amended,
  cancelled: a.cancelled + b.cancelled,
  closed: a.closed + b.closed,
  updated: a.updated + b.updated,
  unchanged: a.unchanged + b.unchanged,
  rejected: a.rejected + b.rejected
})

const noticesOf = seriesOf(sourceNotices, ["source", "outcome"])
const runsOf = seriesOf(sourceRuns, ["source", "outcome"])

/** Counts a page's notices: read (every one parsed or refused), stored (a tender changed), rejected. */
const countNotices = (source: string, page: IngestSummary) => {
  const stored = page.new + page.amended + page.cancelled + page.closed + page.updated
  return Effect.all([
    Metric.update(noticesOf(source, "read"), stored + page.unchanged + page.rejected),
    Metric.update(noticesOf(source, "stored"), stored),
    Metric.update(noticesOf(source, "rejected"), page.rejected)
  ])
}

/** The outcome of one run of a source. */
export interface RunOutcome {
  readonly summary: IngestSummary & { readonly pages: number }
  readonly error: string | null
}

/**
 * One fetch run: from the saved cursor (or `since`), each page is applied and its cursor saved before the
 * next is read, so a failure or a crash loses nothing and repeats nothing; the run and its outcome are
 * recorded for health. A source failure ends the run with `error`, never with a defect.
 */
export const runSource = Effect.fn("runSource")(function* (
  feed: SourceFeed,
  options: { readonly owner: string; readonly since: DateTime.Utc | null; readonly onPage?: () => Effect.Effect<void> }
) {
  const runs = yield* SourceRunStore
  const runId = yield* runs.startRun(feed.source, options.owner)
  const start: FeedStart = {
    cursor: options.since === null ? yield* runs.loadCursor(feed.source) : null,
    since: options.since
  }
  let summary = zero
  let pages = 0
  const error = yield* feed.pages(start).pipe(
    Stream.runForEach((page) =>
      Effect.gen(function* () {
        const applied = yield* ingestNotices(page.results)
        yield* countNotices(feed.source, applied)
        summary = add(summary, applied)
        pages += 1
        if (page.cursor !== null) yield* runs.saveCursor(feed.source, page.cursor)
        if (options.onPage !== undefined) yield* options.onPage()
      })
    ),
    Effect.as(null),
    Effect.catchTag("SourceUnavailable", (e) => Effect.succeed(e.message))
  )
  const outcome: RunOutcome = { summary: { ...summary, pages }, error }
  yield* runs.finishRun(runId, { error, summary: outcome.summary })
  yield* Metric.update(runsOf(feed.source, error === null ? "success" : "failure"), 1)
  return outcome
})

/** How long a replica holds a source's slot before another may take over (renewed after every page). */
export const leaseFor = (interval: Duration.Duration): Duration.Duration =>
  Duration.max(Duration.minutes(10), Duration.times(interval, 1))

/**
 * Runs the source if its slot is due and free anywhere in the fleet; returns the outcome, or null when not due. The
 * slot is held for `lease` (`leaseFor` the interval unless given), renewed after every page.
 */
export const runIfDue = Effect.fn("runIfDue")(function* (
  feed: SourceFeed,
  owner: string,
  interval: Duration.Duration,
  lease: Duration.Duration = leaseFor(interval)
) {
  const runs = yield* SourceRunStore
  const until = DateTime.addDuration(yield* DateTime.now, lease)
  if (!(yield* runs.claim(feed.source, owner, { until }))) return null
  const renew = Effect.flatMap(DateTime.now, (now) => runs.renew(feed.source, owner, DateTime.addDuration(now, lease)))
  const outcome = yield* runSource(feed, { owner, since: null, onPage: () => renew }).pipe(
    Effect.ensuring(
      Effect.flatMap(DateTime.now, (now) => runs.release(feed.source, owner, DateTime.addDuration(now, interval)))
    )
  )
  return outcome
})
