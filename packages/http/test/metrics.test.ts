import { assert, describe, it } from "@effect/vitest"
import { Rates, SourceStatusStore } from "@tenders/core"
import { accountWithKey, memoryStore } from "@tenders/core/testing"
import { Effect, Layer, Metric, Redacted, Tracer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApp, metricsRoute, routerConfig } from "../src/index.ts"

/** The REST app with `/metrics` as the server mounts it, over in-memory ports; spans recorded by `tracer`. */
const makeApp = (token: string | undefined, extra: Layer.Layer<never> = Layer.empty, tracer = Tracer.nativeTracer) =>
  Effect.gen(function* () {
    const ports = yield* Layer.build(Layer.mergeAll(memoryStore, Rates.bundled))
    const registry = new Map()
    const app = Layer.mergeAll(HttpApp, metricsRoute(token === undefined ? undefined : Redacted.make(token))).pipe(
      Layer.provide(extra),
      Layer.provide(Layer.succeedContext(ports)),
      Layer.provide(HttpServer.layerServices),
      // Into the requests' context too: a registry of this test's own, and its tracer.
      Layer.provideMerge(Layer.succeed(Metric.MetricRegistry, registry)),
      Layer.provideMerge(Layer.succeed(Tracer.Tracer, tracer))
    )
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true, routerConfig })
    yield* Effect.addFinalizer(() => Effect.promise(dispose))
    const call = (path: string, init: RequestInit = {}) =>
      Effect.promise(async () => {
        const response = await handler(new Request(`http://localhost${path}`, init))
        return { status: response.status, text: await response.text(), type: response.headers.get("content-type") }
      })
    const key = (yield* accountWithKey("m@example.com", "pro", "rest", null).pipe(Effect.provide(ports))).key
    return { call, key, registry }
  })

const codeOf = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code

describe("GET /metrics on the server's port", () => {
  it.live("is 404 in the contract's shape, as any unknown path, without TENDERS_METRICS_TOKEN", () =>
    Effect.gen(function* () {
      const { call } = yield* makeApp(undefined)
      const res = yield* call("/metrics", { headers: { authorization: "Bearer anything" } })
      assert.deepStrictEqual([res.status, codeOf(res.text)], [404, "not_found"])
    }).pipe(Effect.scoped)
  )

  it.live("is 401 in the contract's shape without the bearer token or with another, 200 with it", () =>
    Effect.gen(function* () {
      const { call } = yield* makeApp("t0ken")
      for (const authorization of [undefined, "Bearer t0ken2", "Bearer t0ke", "Basic t0ken"]) {
        const res = yield* call("/metrics", authorization === undefined ? {} : { headers: { authorization } })
        assert.deepStrictEqual([res.status, codeOf(res.text)], [401, "unauthorized"], authorization)
      }
      const res = yield* call("/metrics", { headers: { authorization: "Bearer t0ken" } })
      assert.strictEqual(res.status, 200)
      assert.match(res.type ?? "", /^text\/plain; version=0\.0\.4/u)
      assert.match(res.text, /^# TYPE tenders_outbox_depth gauge$/mu)
      // The process's memory, read at the scrape.
      for (const family of ["resident_memory", "heap_used", "heap_total"])
        assert.match(res.text, new RegExp(`^tenders_process_${family}_bytes [1-9]\\d*$`, "mu"))
    }).pipe(Effect.scoped)
  )

  it.live("reads the process's CPU time, and its event loop's delay since the previous scrape", () =>
    Effect.gen(function* () {
      const { call } = yield* makeApp("t0ken")
      const scrape = call("/metrics", { headers: { authorization: "Bearer t0ken" } }).pipe(Effect.map((r) => r.text))
      const value = (text: string, series: string) => {
        const line = text.split("\n").find((l) => l.startsWith(`${series} `))
        return line === undefined ? undefined : Number(line.slice(series.length + 1))
      }
      const cpu = "tenders_process_cpu_seconds_total"
      const maxDelay = 'tenders_process_event_loop_delay_seconds{stat="max"}'
      const cpuNow = () => {
        const used = process.cpuUsage()
        return (used.user + used.system) / 1e6
      }
      yield* scrape // the routes are built by the first request: the loop's delay is sampled from then on
      yield* Effect.sleep("50 millis")
      const first = yield* scrape
      assert.isAbove(value(first, cpu) ?? 0, 0)
      assert.isAtMost(value(first, cpu) ?? Infinity, cpuNow())
      // The thread held for 500 ms of CPU: the counter moves by as much, and the loop ran that late (sampled again
      // from the timer's next tick after the scrape's reset).
      yield* Effect.sleep("50 millis")
      const from = cpuNow()
      while (cpuNow() - from < 0.5);
      yield* Effect.sleep("20 millis")
      const second = yield* scrape
      assert.isAtLeast((value(second, cpu) ?? 0) - (value(first, cpu) ?? 0), 0.5)
      assert.isAtLeast(value(second, maxDelay) ?? 0, 0.4)
      for (const stat of ["p50", "p99"])
        assert.isDefined(value(second, `tenders_process_event_loop_delay_seconds{stat="${stat}"}`))
      // Measured since the previous scrape: the held thread is not in the next one.
      yield* Effect.sleep("50 millis")
      assert.isBelow(value(yield* scrape, maxDelay) ?? Infinity, value(second, maxDelay) ?? 0)
    }).pipe(Effect.scoped)
  )

  it.live("counts each request by route pattern, method and status, never by raw path", () =>
    Effect.gen(function* () {
      const { call, key } = yield* makeApp("t0ken")
      const auth = { authorization: `Bearer ${key}` }
      yield* call("/v1/tenders/ted-123-2026", { headers: auth })
      yield* call("/v1/tenders/ted-456-2026", { headers: auth })
      yield* call("/v1/tenders/ted-456-2026")
      yield* call("/no/such/path-789")
      const body = (yield* call("/metrics", { headers: { authorization: "Bearer t0ken" } })).text
      const count = (labels: string) =>
        new RegExp(`^tenders_http_requests_total\\{${labels}\\} (\\d+)$`, "mu").exec(body)?.[1]
      assert.strictEqual(count('route="/v1/tenders/:id",method="GET",status="404"'), "2")
      assert.strictEqual(count('route="/v1/tenders/:id",method="GET",status="401"'), "1")
      assert.strictEqual(count('route="unmatched",method="GET",status="404"'), "1")
      assert.match(
        body,
        /^tenders_http_request_duration_seconds_count\{route="\/v1\/tenders\/:id",method="GET",status="404"\} 2$/mu
      )
      assert.notMatch(body, /ted-123|ted-456|path-789/u)
    }).pipe(Effect.scoped)
  )
})

describe("a 500's trace id", () => {
  it.live("is the trace id of the request's server span (the one its exported spans and log lines carry)", () =>
    Effect.gen(function* () {
      const spans: Array<Tracer.Span> = []
      const recording = Tracer.make({
        span: (options) => {
          const span = new Tracer.NativeSpan(options)
          spans.push(span)
          return span
        }
      })
      const broken = Layer.succeed(SourceStatusStore, SourceStatusStore.of({ summaries: Effect.die("reset") }))
      const { call, key } = yield* makeApp(undefined, broken, recording)
      const res = yield* call("/health", { headers: { authorization: `Bearer ${key}` } })
      assert.strictEqual(res.status, 500)
      const id = /\(trace ([0-9a-f]+)\)/u.exec(JSON.parse(res.text).error.message)?.[1]
      const server = spans.find((span) => span.kind === "server")
      assert.isDefined(server)
      assert.strictEqual(id, server?.traceId)
    }).pipe(Effect.scoped)
  )
})
