import {
  DeliveryStore,
  observeStore,
  processCpuSeconds,
  processEventLoopDelay,
  processHeapTotal,
  processHeapUsed,
  processResidentMemory,
  seriesOf,
  SourceStatusStore,
  Unauthorized
} from "@tenders/core"
import { Context, Effect, Layer, Metric, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { createHash, timingSafeEqual } from "node:crypto"
import { type ELDHistogram, monitorEventLoopDelay } from "node:perf_hooks"
import { cpuUsage, memoryUsage } from "node:process"
import { failureResponse } from "./ErrorResponse.ts"

/** The path Prometheus scrapes. */
export const metricsPath = "/metrics"

/**
 * The event loop's delay, sampled (every 10 ms, node's `monitorEventLoopDelay`) from the first metrics route's start:
 * one for the process, whichever of its routes is scraped.
 */
let loopDelay: ELDHistogram | undefined
const startLoopDelay = Effect.sync(() => {
  if (loopDelay !== undefined) return
  loopDelay = monitorEventLoopDelay()
  loopDelay.enable()
})

const loopDelaySeries = seriesOf(processEventLoopDelay, ["stat"])

/**
 * Sets what a scrape reads from the process: its memory; its CPU time (the counter moved by what it lacks, so it is the
 * process's total in any registry); its event loop's delay since the previous scrape (none when nothing was sampled).
 */
const observeProcess = Effect.gen(function* () {
  const memory = memoryUsage()
  const cpu = cpuUsage()
  const reported = (yield* Metric.value(processCpuSeconds)).count
  yield* Metric.update(processCpuSeconds, Math.max(0, (cpu.user + cpu.system) / 1e6 - reported))
  yield* Metric.update(processResidentMemory, memory.rss)
  yield* Metric.update(processHeapUsed, memory.heapUsed)
  yield* Metric.update(processHeapTotal, memory.heapTotal)
  const delay = loopDelay
  if (delay === undefined || delay.count === 0) return
  const stats = [
    ["p50", delay.percentile(50)],
    ["p99", delay.percentile(99)],
    ["max", delay.max]
  ] as const
  delay.reset()
  for (const [stat, nanoseconds] of stats) yield* Metric.update(loopDelaySeries(stat), nanoseconds / 1e9)
})

/**
 * The body of a scrape: the gauges read now (the store's, the process's), then every family in Prometheus's text
 * format (Effect's own exposition). A store that cannot answer leaves its gauges as they were: the scrape still works.
 */
export const scrapeMetrics = Effect.gen(function* () {
  yield* observeStore().pipe(Effect.catchCause((cause) => Effect.logWarning("metrics: the store's gauges", cause)))
  yield* observeProcess
  return yield* PrometheusMetrics.format()
})

const prometheusText = (body: string) =>
  HttpServerResponse.text(body, { contentType: "text/plain; version=0.0.4; charset=utf-8" })

const digest = (text: string) => createHash("sha256").update(text).digest()

/** True when `given` is the token; compared in constant time (digests of equal length). */
const sameToken = (given: string, token: Redacted.Redacted<string>) =>
  timingSafeEqual(digest(given), digest(Redacted.value(token)))

const bearerOf = (request: HttpServerRequest.HttpServerRequest) => {
  const header = request.headers["authorization"] ?? ""
  return header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : undefined
}

const refused = (message: string) =>
  HttpServerResponse.setHeader(failureResponse(new Unauthorized({ message })), "www-authenticate", "Bearer")

/** The store ports a scrape reads. */
export type ScrapePorts = SourceStatusStore | DeliveryStore

/** Adds `GET /metrics` to the router, answered by `answer` with the scrape over the layer's ports. */
const addMetricsRoute = (
  answer: (
    scrape: Effect.Effect<HttpServerResponse.HttpServerResponse>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      yield* startLoopDelay
      // Only the ports: the registry and the tracer are the request's.
      const ports = Context.make(SourceStatusStore, yield* SourceStatusStore).pipe(
        Context.add(DeliveryStore, yield* DeliveryStore)
      )
      const router = yield* HttpRouter.HttpRouter
      yield* router.add(
        "GET",
        metricsPath,
        answer(Effect.map(Effect.provideContext(scrapeMetrics, ports), prometheusText))
      )
    })
  )

/**
 * `GET /metrics` on the server's port, behind `TENDERS_METRICS_TOKEN` (a bearer token; 401 in the contract's shape
 * without it or with another). Without a token the route is not added: the path is 404 as any unknown one.
 */
export const metricsRoute = (token: Redacted.Redacted<string> | undefined) =>
  token === undefined
    ? Layer.empty
    : addMetricsRoute((scrape) =>
        Effect.gen(function* () {
          const given = bearerOf(yield* HttpServerRequest.HttpServerRequest)
          if (given === undefined) return refused('Missing credentials: send "Authorization: Bearer <metrics token>".')
          if (!sameToken(given, token)) return refused("Invalid metrics token.")
          return yield* scrape
        })
      )

/** `GET /metrics` with no token, for a listener of its own (`TENDERS_METRICS_PORT`, loopback by default). */
export const openMetricsRoute = addMetricsRoute((scrape) => scrape)
