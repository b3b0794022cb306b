import { Duration, Effect, Schedule } from "effect"
import type { BackgroundSettings } from "../Settings.ts"
import type { SourceCode } from "../Source.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import type { SourceFeed } from "../ports/SourceFeed.ts"
import { deliverDue } from "./DeliverAlerts.ts"
import { makeAlertEvaluator } from "./EvaluateAlerts.ts"
import { type RatesFeed, refreshRatesIfDue } from "./ImportRates.ts"
import { runIfDue } from "./RunSource.ts"

/** What a replica's background work needs: its feeds, its name in leases, and its timing. */
export interface BackgroundWorkOptions {
  readonly feeds: ReadonlyArray<SourceFeed>
  /** This replica's name in the schedule's and the outbox's leases (unique across the fleet). */
  readonly owner: string
  readonly intervals: Readonly<Record<SourceCode, Duration.Duration>>
  readonly settings: BackgroundSettings
  /** The reference rates' publishers, refreshed once a quarter across the fleet (none: no refresh). */
  readonly rates?: RatesFeed | undefined
}

/** One check of the quarterly rates refresh: run it when its slot is due and free anywhere in the fleet, and log it. */
const scheduledRatesRefresh = (feed: RatesFeed, owner: string) =>
  refreshRatesIfDue(feed, owner).pipe(
    Effect.tap((outcome) =>
      outcome === null || outcome._tag === "Current"
        ? Effect.void
        : outcome._tag === "Failed"
          ? Effect.logWarning(`reference rates: refresh failed, retried later: ${outcome.message}`)
          : Effect.logInfo(
              `reference rates of ${outcome.result.quarter} imported` +
                (outcome.result.missing.length > 0 ? `; missing ${outcome.result.missing.join(", ")}` : "") +
                (outcome.result.failures.length > 0 ? `; retried later: ${outcome.result.failures.join("; ")}` : "")
            )
    ),
    Effect.catchCause((cause) => Effect.logError("reference rates: scheduled refresh crashed", cause))
  )

/** One scheduled check of a source: run it when its slot is due and free anywhere in the fleet, and log it. */
const scheduledRun = (
  feed: SourceFeed,
  owner: string,
  interval: Duration.Duration,
  lease: Duration.Duration | undefined
) =>
  runIfDue(feed, owner, interval, lease).pipe(
    Effect.tap((outcome) =>
      outcome === null
        ? Effect.void
        : outcome.error === null
          ? Effect.logInfo(`${feed.source}: ${JSON.stringify(outcome.summary)}`)
          : Effect.logWarning(`${feed.source} failed: ${outcome.error}`)
    ),
    Effect.catchCause((cause) => Effect.logError(`${feed.source}: scheduled run crashed`, cause))
  )

/**
 * One sweep, in this order: close tenders whose deadline passed (so they raise nothing), turn new tender events into
 * alerts, then work the outbox. A failure is logged and the next tick tries again.
 */
export const makeSweep = Effect.fn("makeSweep")(function* (deliveryLease: Duration.Duration) {
  const store = yield* TenderStore
  const evaluate = yield* makeAlertEvaluator
  return store.closeExpired.pipe(
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`closed ${n} tender(s) whose deadline passed`) : Effect.void)),
    Effect.andThen(evaluate),
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`raised ${n} alert(s)`) : Effect.void)),
    Effect.andThen(deliverDue({ lease: deliveryLease })),
    Effect.tap((d) =>
      d.attempted > 0 ? Effect.logInfo(`deliveries: ${d.delivered} of ${d.attempted} sent`) : Effect.void
    ),
    Effect.catchCause((cause) => Effect.logError("deadline sweep, alert evaluation or delivery failed", cause)),
    Effect.withSpan("sweep")
  )
})

/**
 * A replica's background work, forked into the current scope: each source on its own fiber checking its slot every
 * tick (the store's lease makes each scheduled run happen once across every replica sharing it), and the sweep
 * every tick. Runs until the scope closes.
 */
export const startBackgroundWork = Effect.fn("startBackgroundWork")(function* (options: BackgroundWorkOptions) {
  const every = Schedule.spaced(options.settings.tick)
  const described = options.feeds.map((f) => `${f.source} every ${Duration.format(options.intervals[f.source])}`)
  yield* Effect.logInfo(`Scheduled ingestion on (${described.join(", ")}); --no-schedule turns it off.`)
  for (const feed of options.feeds) {
    yield* Effect.forkScoped(
      scheduledRun(feed, options.owner, options.intervals[feed.source], options.settings.sourceLease).pipe(
        Effect.repeat(every)
      )
    )
  }
  if (options.rates !== undefined) {
    yield* Effect.forkScoped(scheduledRatesRefresh(options.rates, options.owner).pipe(Effect.repeat(every)))
  }
  const sweep = yield* makeSweep(options.settings.deliveryLease)
  yield* Effect.forkScoped(sweep.pipe(Effect.repeat(every)))
})
