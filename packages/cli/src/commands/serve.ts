import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { deliverDue, ingestRecords, makeAlertEvaluator, runIfDue, type SourceCode, sourceCodes, TenderStore } from "@tenders/core"
import { notifierLayer, webhookTimeout } from "@tenders/adapters-notify"
import { HttpApp } from "@tenders/http"
import type { Command } from "commander"
import { Option as CliOption } from "commander"
import { Cause, Config, DateTime, Duration, Effect, Exit, Layer, Runtime, Schedule } from "effect"
import { HttpRouter } from "effect/http"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { hostname } from "node:os"
import { feedFor, sourceIntervals } from "../Feeds.ts"
import { appLayer, type GlobalOptions } from "../Runtime.ts"
import { loadSample } from "../SampleData.ts"

interface ServeOptions {
  readonly port: string
  readonly host: string
  readonly seed: boolean
  readonly schedule: boolean
}

/**
 * Scheduled ingestion: every source on its own fiber, checking each tick whether its slot is due; the lease
 * in the database makes each scheduled run happen once across every replica sharing it.
 */
const scheduler = Effect.gen(function*() {
  const intervals = yield* sourceIntervals
  const tick = yield* Config.Duration("TENDERS_SCHEDULER_TICK").pipe(Config.withDefault(Duration.seconds(15)))
  const lease = yield* Config.Duration("TENDERS_DELIVERY_LEASE").pipe(Config.withDefault(Duration.minutes(2)))
  const timeout = yield* webhookTimeout
  if (!Duration.isGreaterThan(lease, Duration.sum(timeout, Duration.seconds(1)))) {
    // A lease shorter than an attempt would let a second worker send a delivery that is still in flight.
    return yield* Effect.die(new Error(`TENDERS_DELIVERY_LEASE (${Duration.format(lease)}) must be longer than TENDERS_WEBHOOK_TIMEOUT (${Duration.format(timeout)}) plus 1 second`))
  }
  const owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`
  const loop = (source: SourceCode) =>
    Effect.gen(function*() {
      const feed = yield* feedFor(source)
      const once = runIfDue(feed, owner, intervals[source]).pipe(
        Effect.tap((outcome) =>
          outcome === null
            ? Effect.void
            : outcome.error === null
            ? Effect.logInfo(`${source}: ${JSON.stringify(outcome.summary)}`)
            : Effect.logWarning(`${source} failed: ${outcome.error}`)),
        Effect.catchCause((cause) => Effect.logError(`${source}: scheduled run crashed`, cause))
      )
      yield* once.pipe(Effect.repeat(Schedule.spaced(tick)))
    })
  yield* Effect.logInfo(`Scheduled ingestion on (${sourceCodes.map((s) => `${s} every ${Duration.format(intervals[s])}`).join(", ")}); --no-schedule turns it off.`)
  yield* Effect.forEach(sourceCodes, (source) => Effect.forkScoped(loop(source)), { discard: true })
  const store = yield* TenderStore
  const evaluateAlerts = yield* makeAlertEvaluator
  const sweep = store.closeExpired.pipe(
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`closed ${n} tender(s) whose deadline passed`) : Effect.void)),
    Effect.andThen(evaluateAlerts),
    Effect.tap((n) => (n > 0 ? Effect.logInfo(`raised ${n} alert(s)`) : Effect.void)),
    Effect.andThen(deliverDue({ lease })),
    Effect.tap((d) => (d.attempted > 0 ? Effect.logInfo(`deliveries: ${d.delivered} of ${d.attempted} sent`) : Effect.void)),
    Effect.catchCause((cause) => Effect.logError("deadline sweep or alert evaluation failed", cause))
  )
  yield* Effect.forkScoped(sweep.pipe(Effect.repeat(Schedule.spaced(tick))))
})

/** Ingests the bundled sample into an empty store. */
const seedIfEmpty = Effect.gen(function*() {
  const store = yield* TenderStore
  if ((yield* store.size) > 0) return
  const records = yield* loadSample(DateTime.toEpochMillis(yield* DateTime.now))
  const counts = yield* ingestRecords(records)
  yield* Effect.logInfo(`Seeded ${counts.new} sample tenders (docs/sample-data.md); start with --no-seed to skip.`)
})

const parsePort = (raw: string) => {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got "${raw}"`)
  return port
}

/** SIGINT / SIGTERM end the server after its finalizers ran (store closed): that is a clean stop, exit 0. */
const stopCleanly: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/** `tenders serve`: the REST API (and /docs) on the configured store. */
export const registerServe = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("serve")
    .description("run the REST API server (seeds the bundled sample into an empty store)")
    .addOption(new CliOption("--port <port>", "port to listen on").env("TENDERS_PORT").default(process.env["PORT"] ?? "8080"))
    .addOption(new CliOption("--host <host>", "address to bind").env("TENDERS_HOST").default("127.0.0.1"))
    .option("--no-seed", "do not ingest the bundled sample data into an empty store")
    .option("--no-schedule", "do not fetch the sources on a schedule (a read-only replica)")
    .action((options: ServeOptions) => {
      const port = parsePort(options.port)
      const ports = Layer.mergeAll(appLayer(globals()), notifierLayer({ dataDir: globals().dataDir }))
      const startup = Effect.gen(function*() {
        if (options.seed) yield* seedIfEmpty
        if (options.schedule) yield* scheduler
      })
      const server = HttpRouter.serve(HttpApp).pipe(
        // Idle keep-alive sockets outlive any client's own idle timeout (undici: 4 s), so a client never reuses a
        // socket the server is closing at that moment.
        Layer.provide(NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }), { port, host: options.host })),
        Layer.provide(Layer.effectDiscard(startup.pipe(Effect.orDie))),
        Layer.provideMerge(ports)
      )
      NodeRuntime.runMain(Layer.launch(server), { teardown: stopCleanly })
    })
