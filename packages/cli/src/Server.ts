// The server of `tenders serve`, loaded only by that command (it brings the HTTP, MCP and notifier stacks).
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { notifierLayer, webhookTimeout } from "@tenders/adapters-notify"
import {
  deliverDue,
  ingestRecords,
  makeAlertEvaluator,
  runIfDue,
  type SourceCode,
  sourceCodes,
  TenderStore
} from "@tenders/core"
import { HttpApp } from "@tenders/http"
import { McpAllowedOrigins, McpApp } from "@tenders/mcp"
import { Cause, Config, DateTime, Duration, Effect, Exit, Layer, Option, Runtime, Schedule } from "effect"
import { HttpRouter } from "effect/http"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { hostname } from "node:os"
import { feedFor, sourceIntervals } from "./Feeds.ts"
import { appLayer, type GlobalOptions } from "./Runtime.ts"
import { loadSample } from "./SampleData.ts"

/** What `tenders serve` was asked for. */
export interface ServerOptions {
  readonly port: number
  readonly host: string
  readonly seed: boolean
  readonly schedule: boolean
}

/**
 * Scheduled ingestion: every source on its own fiber, checking each tick whether its slot is due; the lease
 * in the database makes each scheduled run happen once across every replica sharing it.
 */
const scheduler = Effect.gen(function* () {
  const intervals = yield* sourceIntervals
  const tick = yield* Config.Duration("TENDERS_SCHEDULER_TICK").pipe(Config.withDefault(Duration.seconds(15)))
  const lease = yield* Config.Duration("TENDERS_DELIVERY_LEASE").pipe(Config.withDefault(Duration.minutes(2)))
  const timeout = yield* webhookTimeout
  if (!Duration.isGreaterThan(lease, Duration.sum(timeout, Duration.seconds(1)))) {
    // A lease shorter than an attempt would let a second worker send a delivery that is still in flight.
    return yield* Effect.die(
      new Error(
        `TENDERS_DELIVERY_LEASE (${Duration.format(lease)}) must be longer than TENDERS_WEBHOOK_TIMEOUT (${Duration.format(timeout)}) plus 1 second`
      )
    )
  }
  const owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`
  const loop = (source: SourceCode) =>
    Effect.gen(function* () {
      const feed = yield* feedFor(source)
      const once = runIfDue(feed, owner, intervals[source]).pipe(
        Effect.tap((outcome) =>
          outcome === null
            ? Effect.void
            : outcome.error === null
              ? Effect.logInfo(`${source}: ${JSON.stringify(outcome.summary)}`)
              : Effect.logWarning(`${source} failed: ${outcome.error}`)
        ),
        Effect.catchCause((cause) => Effect.logError(`${source}: scheduled run crashed`, cause))
      )
      yield* once.pipe(Effect.repeat(Schedule.spaced(tick)))
    })
  yield* Effect.logInfo(
    `Scheduled ingestion on (${sourceCodes.map((s) => `${s} every ${Duration.format(intervals[s])}`).join(", ")}); --no-schedule turns it off.`
  )
  yield* Effect.forEach(sourceCodes, (source) => Effect.forkScoped(loop(source)), { discard: true })
  const store = yield* TenderStore
  const evaluateAlerts = yield* makeAlertEvaluator
  const sweep = store.closeExpired.pipe(
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`closed ${n} tender(s) whose deadline passed`) : Effect.void)),
    Effect.andThen(evaluateAlerts),
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`raised ${n} alert(s)`) : Effect.void)),
    Effect.andThen(deliverDue({ lease })),
    Effect.tap((d) =>
      d.attempted > 0 ? Effect.logInfo(`deliveries: ${d.delivered} of ${d.attempted} sent`) : Effect.void
    ),
    Effect.catchCause((cause) => Effect.logError("deadline sweep or alert evaluation failed", cause))
  )
  yield* Effect.forkScoped(sweep.pipe(Effect.repeat(Schedule.spaced(tick))))
})

/** Ingests the bundled sample into an empty store. */
const seedIfEmpty = Effect.gen(function* () {
  const store = yield* TenderStore
  if ((yield* store.size) > 0) return
  const records = yield* loadSample(DateTime.toEpochMillis(yield* DateTime.now))
  const counts = yield* ingestRecords(records)
  yield* Effect.logInfo(`Seeded ${counts.new} sample tenders (docs/sample-data.md); start with --no-seed to skip.`)
})

/** Browser origins allowed on /mcp besides loopback ones: TENDERS_MCP_ALLOWED_ORIGINS, comma-separated. */
const allowedOrigins = Layer.effect(
  McpAllowedOrigins,
  Effect.map(Config.option(Config.String("TENDERS_MCP_ALLOWED_ORIGINS")), (origins) =>
    Option.getOrElse(origins, () => "")
      .split(",")
      .map((o) => o.trim())
      .filter((o) => o.length > 0)
  )
)

/** The MCP endpoint `tenders serve` mounts at /mcp next to the REST routes. */
export const McpHttp = McpApp.pipe(Layer.provide(allowedOrigins))

/** SIGINT / SIGTERM end the server after its finalizers ran (store closed): that is a clean stop, exit 0. */
const stopCleanly: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/** Runs the REST API, /docs and /mcp on the configured store until SIGINT / SIGTERM. */
export const runServer = (options: ServerOptions, globals: GlobalOptions) => {
  const ports = Layer.mergeAll(appLayer(globals), notifierLayer({ dataDir: globals.dataDir }))
  const startup = Effect.gen(function* () {
    if (options.seed) yield* seedIfEmpty
    if (options.schedule) yield* scheduler
  })
  const server = HttpRouter.serve(Layer.mergeAll(HttpApp, McpHttp)).pipe(
    // Idle keep-alive sockets outlive any client's own idle timeout (undici: 4 s), so a client never reuses a
    // socket the server is closing at that moment.
    Layer.provide(
      NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }), {
        port: options.port,
        host: options.host
      })
    ),
    Layer.provide(Layer.effectDiscard(startup.pipe(Effect.orDie))),
    Layer.provideMerge(ports)
  )
  NodeRuntime.runMain(Layer.launch(server), { teardown: stopCleanly })
}
