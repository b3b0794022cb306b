import { Config, type LogLevel, Option, Redacted } from "effect"
import { optionalSetting } from "./Settings.ts"

/** Where and how `GET /metrics` is served. */
export interface MetricsSettings {
  /** `TENDERS_METRICS_TOKEN`: the bearer token of `/metrics` on the server's port; unset, that path is 404. */
  readonly token: Redacted.Redacted<string> | undefined
  /** `TENDERS_METRICS_PORT`: a listener of its own serving `/metrics` without a token. */
  readonly port: number | undefined
  /** `TENDERS_METRICS_HOST`: the address that listener binds (loopback unless told otherwise). */
  readonly host: string
}

/** `TENDERS_METRICS_TOKEN`, `TENDERS_METRICS_PORT` and `TENDERS_METRICS_HOST` (default 127.0.0.1). */
export const metricsSettingsConfig: Config.Config<MetricsSettings> = Config.all({
  token: Config.map(optionalSetting("TENDERS_METRICS_TOKEN"), (token) =>
    token === undefined ? undefined : Redacted.make(token)
  ),
  port: Config.Port("TENDERS_METRICS_PORT").pipe(Config.option, Config.map(Option.getOrUndefined)),
  host: Config.String("TENDERS_METRICS_HOST").pipe(Config.withDefault("127.0.0.1"))
})

/** `TENDERS_LOG_FORMAT`: `text` (the default, as ever) or `json` (one JSON object a line). */
export const logFormatConfig: Config.Config<"text" | "json"> = Config.Literals(
  ["text", "json"],
  "TENDERS_LOG_FORMAT"
).pipe(Config.withDefault("text" as const))

/** The names `TENDERS_LOG_LEVEL` takes, least severe first, and Effect's level of each. */
const logLevels = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  none: "None"
} as const satisfies Record<string, LogLevel.LogLevel>
type LogLevelName = keyof typeof logLevels

/**
 * `TENDERS_LOG_LEVEL`: the least severe level logged. `info` (the default) logs a line for every request answered;
 * `warn` keeps failures, retries and warnings (a 500's report, a source's failed run) and drops the lines of what
 * went well, the requests' included, whose counts and latencies `/metrics` has.
 */
export const logLevelConfig: Config.Config<LogLevel.LogLevel> = Config.Literals(
  Object.keys(logLevels) as Array<LogLevelName>,
  "TENDERS_LOG_LEVEL"
).pipe(
  Config.withDefault("info" as const),
  Config.map((name) => logLevels[name])
)

/**
 * The OTLP resource's service name unless the environment names one (`OTEL_SERVICE_NAME`, or `service.name` in
 * `OTEL_RESOURCE_ATTRIBUTES`, which Effect's exporter reads itself): `tenders`.
 */
export const defaultServiceName: Config.Config<string | undefined> = Config.all({
  name: optionalSetting("OTEL_SERVICE_NAME"),
  attributes: optionalSetting("OTEL_RESOURCE_ATTRIBUTES")
}).pipe(
  Config.map(({ name, attributes }) =>
    name !== undefined || (attributes ?? "").includes("service.name=") ? undefined : "tenders"
  )
)

/** True when traces are to be exported: an OTLP endpoint is set (for every signal or for traces). */
export const tracingEnabledConfig: Config.Config<boolean> = Config.all({
  all: optionalSetting("OTEL_EXPORTER_OTLP_ENDPOINT"),
  traces: optionalSetting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
}).pipe(Config.map(({ all, traces }) => all !== undefined || traces !== undefined))
