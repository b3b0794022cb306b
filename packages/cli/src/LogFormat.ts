// The log lines of `serve` and `mcp --stdio`: their format (Effect's readable text, or JSON lines) and level.
import { logFormatConfig, logLevelConfig, recordedSpanOf } from "@tenders/core"
import { Config, Console, Effect, Formatter, Layer, Logger, References } from "effect"

/**
 * One JSON object a line: Effect's structured entry (message, level, timestamp, cause, annotations, spans, fiber)
 * with the trace and span ids of the span it was logged in while traces are recorded (`recordedSpanOf`), so a log line
 * and its trace meet. On stdout, or on stderr where `Logger.LogToStderr` says so (`mcp --stdio`, whose stdout is the
 * protocol's).
 */
export const jsonLineLogger = Logger.make((options) => {
  const entry = Logger.formatStructured.log(options)
  const span = recordedSpanOf(options.fiber)
  const line = Formatter.formatJson(
    span === undefined ? entry : { ...entry, traceId: span.traceId, spanId: span.spanId }
  )
  const console = options.fiber.getRef(Console.Console)
  if (options.fiber.getRef(Logger.LogToStderr)) console.error(line)
  else console.log(line)
})

/**
 * `TENDERS_LOG_FORMAT=json`: every log line as JSON (`jsonLineLogger`); else the default logger, as ever. Lines below
 * `TENDERS_LOG_LEVEL` (`info` unless set) are not written.
 */
export const loggingLayer = Layer.unwrap(
  Effect.map(Config.all([logFormatConfig, logLevelConfig]), ([format, level]) =>
    Layer.merge(
      format === "json" ? Logger.layer([jsonLineLogger]) : Layer.empty,
      Layer.succeed(References.MinimumLogLevel, level)
    )
  )
)
