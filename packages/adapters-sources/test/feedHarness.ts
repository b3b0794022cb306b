import type { FeedPage, FeedStart, SourceFeed, SourceUnavailable } from "@tenders/core"
import { Clock, Effect, Fiber, Layer, References, Result, Stream } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { TestClock } from "effect/testing"

/*
 * Feed tests run on the TestClock (`it.effect`): pacing, backoff, Retry-After and request time limits only pass
 * when a test advances the clock. msw answers on real I/O, so a test lets the event loop turn until what it
 * waits for has happened (`eventually`), or for a few turns to see that nothing happens (`settle`); neither
 * moves the clock.
 */

const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/** Turns the real event loop until `condition` holds; dies after 5 s of real time. The TestClock does not move. */
export const eventually = (condition: () => boolean, what: string) =>
  Effect.gen(function* () {
    const live = TestClock.withLive(Clock.currentTimeMillis)
    const deadline = (yield* live) + 5000
    while (!condition()) {
      if ((yield* live) > deadline) return yield* Effect.die(new Error(`still waiting until ${what}`))
      yield* turn
    }
  })

/** Lets pending real I/O run for a few event-loop turns, to observe that nothing more happens meanwhile. */
export const settle = Effect.asVoid(Effect.repeat(turn, { times: 50 }))

/** A feed run in progress: the pages emitted so far, and its fiber (the failure, if any, as a value). */
export interface FeedRun {
  readonly pages: ReadonlyArray<FeedPage>
  readonly fiber: Fiber.Fiber<Result.Result<void, SourceUnavailable>>
}

/** Builds a feed over `client` (fetch by default, which msw intercepts; alive until the test ends) and starts a run. */
export const startRun = (
  makeFeed: Effect.Effect<SourceFeed, never, HttpClient.HttpClient>,
  start: FeedStart,
  client: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
) =>
  Effect.gen(function* () {
    const feed = yield* Effect.provide(makeFeed, yield* Layer.build(client))
    const pages: Array<FeedPage> = []
    const fiber = yield* feed.pages(start).pipe(
      Stream.runForEach((page) => Effect.sync(() => pages.push(page))),
      Effect.result,
      Effect.provideService(References.MinimumLogLevel, "Error"),
      Effect.forkChild
    )
    const run: FeedRun = { pages, fiber }
    return run
  })

/** How a run ended: the pages it emitted and its failure (null when it read to the end). */
export const finished = (run: FeedRun) =>
  Effect.map(Fiber.join(run.fiber), (result) => ({
    pages: run.pages,
    error: Result.isFailure(result) ? result.failure : null
  }))

/** Runs a feed to its end; for runs that never wait on the clock (no pacing, no backoff). */
export const runToEnd = (
  makeFeed: Effect.Effect<SourceFeed, never, HttpClient.HttpClient>,
  start: FeedStart,
  client?: Layer.Layer<HttpClient.HttpClient>
) => Effect.flatMap(startRun(makeFeed, start, client), finished)
