// What an operator sees of `tenders serve`: `/metrics` (on the server's port behind a token, or on a listener of its
// own), and OTLP traces when an endpoint is set (the log lines' format: LogFormat.ts).
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { defaultServiceName, metricsSettingsConfig, tracingEnabledConfig } from "@tenders/core"
import { metricsRoute, openMetricsRoute } from "@tenders/http"
import { ConfigProvider, Effect, Layer, References } from "effect"
import { FetchHttpClient, HttpRouter } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { createServer } from "node:http"

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is set,
 * with Effect's exporter and the standard `OTEL_*` settings it reads; the service is `tenders` unless named. Without
 * an endpoint no span is recorded (`References.TracerEnabled` false): nothing would read them, and making them (ids,
 * clock, attributes) cost about 6 % of the server's CPU on a cached search (benchmarks.md, eleventh session). Log lines
 * then carry no trace id and a 500 names an id of its own (`recordedSpanOf`).
 */
export const tracingLayer = Layer.unwrap(
  Effect.gen(function* () {
    if (!(yield* tracingEnabledConfig)) return Layer.succeed(References.TracerEnabled, false)
    const serviceName = yield* defaultServiceName
    return OtlpTracer.layerFromConfig(serviceName === undefined ? {} : { resource: { serviceName } }).pipe(
      Layer.provide(OtlpSerialization.layerJson),
      Layer.provide(FetchHttpClient.layer),
      // OpenTelemetry's default exporter is `otlp`; Effect's reads an unset OTEL_TRACES_EXPORTER as none.
      Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ OTEL_TRACES_EXPORTER: ["otlp"] })))
    )
  })
).pipe(Layer.orDie)

/** `GET /metrics` on the server's router when `TENDERS_METRICS_TOKEN` is set. */
export const metricsOnServer = Layer.unwrap(
  Effect.map(metricsSettingsConfig, (settings) => metricsRoute(settings.token))
)

/** `TENDERS_METRICS_PORT`: a listener of its own serving `/metrics` without a token, on `TENDERS_METRICS_HOST`. */
export const metricsListener = Layer.unwrap(
  Effect.map(metricsSettingsConfig, (settings) =>
    settings.port === undefined
      ? Layer.empty
      : HttpRouter.serve(openMetricsRoute, { disableLogger: true }).pipe(
          Layer.provide(NodeHttpServer.layer(() => createServer(), { port: settings.port, host: settings.host }))
        )
  )
)
