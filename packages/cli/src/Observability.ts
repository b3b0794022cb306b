// What an operator sees of `tenders serve`: `/metrics` (on the server's port behind a token, or on a listener of its
// own), OTLP traces when an endpoint is set, and JSON log lines when asked for.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { defaultServiceName, logFormatConfig, metricsSettingsConfig, tracingEnabledConfig } from "@tenders/core"
import { metricsRoute, openMetricsRoute } from "@tenders/http"
import { ConfigProvider, Context, Effect, Formatter, Layer, Logger, Tracer } from "effect"
import { FetchHttpClient, HttpRouter } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { createServer } from "node:http"

/**
 * One JSON object a line: Effect's structured entry (message, level, timestamp, cause, annotations, spans, fiber)
 * with the trace and span ids of the span it was logged in, so a log line and its trace meet.
 */
export const jsonLineLogger = Logger.withConsoleLog(
  Logger.make((options) => {
    const entry = Logger.formatStructured.log(options)
    const span = Context.getOrUndefined(options.fiber.context, Tracer.ParentSpan)
    return Formatter.formatJson(span === undefined ? entry : { ...entry, traceId: span.traceId, spanId: span.spanId })
  })
)

/** `TENDERS_LOG_FORMAT=json`: every log line as JSON (`jsonLineLogger`); else the default logger, as ever. */
export const logFormatLayer = Layer.unwrap(
  Effect.map(logFormatConfig, (format) => (format === "json" ? Logger.layer([jsonLineLogger]) : Layer.empty))
)

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is set,
 * with Effect's exporter and the standard `OTEL_*` settings it reads; the service is `tenders` unless named.
 */
export const tracingLayer = Layer.unwrap(
  Effect.gen(function* () {
    if (!(yield* tracingEnabledConfig)) return Layer.empty
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
