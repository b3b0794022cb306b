// The log lines of `serve` and `mcp --stdio`: their format (text: Effect's readable lines at a terminal, logfmt lines
// elsewhere; or JSON lines) and level.
import { logFormatConfig, logLevelConfig, recordedSpanOf } from "@tenders/core"
import { Config, Console, Effect, type Fiber, Formatter, Layer, Logger, References } from "effect"

/** Lines waiting to be written, in order, each run of them with the console and stream they go to. */
interface Batch {
  readonly console: Console.Console
  readonly stderr: boolean
  readonly lines: Array<string>
}
let batches: Array<Batch> = []

/**
 * Writes the lines waiting, a run of them in one write. A console that cannot write (it throws) loses its run, as
 * Node's own console loses what a closed pipe refuses: from the end of a turn, a throw would stop the process.
 */
const flushLines = () => {
  const written = batches
  batches = []
  for (const { console, stderr, lines } of written) {
    try {
      if (stderr) console.error(lines.join("\n"))
      else console.log(lines.join("\n"))
    } catch {
      // The run is lost; the others are still written.
    }
  }
}

/**
 * Writes a log line on the fiber's console (on stderr where `Logger.LogToStderr` says so, else on stdout) once the
 * event loop's turn it was logged in ends (`setImmediate`), with the turn's other lines in one write: the line every
 * request logs cost a write of its own (a system call, the log file's or the pipe's, about 4 % of a cached search's
 * CPU with `console`'s own work; benchmarks.md, fifteenth session). The lines are in the order they were logged;
 * `loggingLayer` writes those waiting when it is released or the process exits; a process killed outright loses at
 * most the lines of its last turn.
 */
const writeLine = (fiber: Fiber.Fiber<unknown, unknown>, line: string) => {
  const console = fiber.getRef(Console.Console)
  const stderr = fiber.getRef(Logger.LogToStderr)
  const last = batches.at(-1)
  if (last?.console === console && last.stderr === stderr) {
    last.lines.push(line)
    return
  }
  if (batches.length === 0) setImmediate(flushLines)
  batches.push({ console, stderr, lines: [line] })
}

/**
 * One JSON object a line: Effect's structured entry (message, level, timestamp, cause, annotations, spans, fiber)
 * with the trace and span ids of the span it was logged in while traces are recorded (`recordedSpanOf`), so a log line
 * and its trace meet. On stdout, or on stderr where `Logger.LogToStderr` says so (`mcp --stdio`, whose stdout is the
 * protocol's).
 */
export const jsonLineLogger = Logger.make((options) => {
  const entry = Logger.formatStructured.log(options)
  const span = recordedSpanOf(options.fiber)
  writeLine(
    options.fiber,
    Formatter.formatJson(span === undefined ? entry : { ...entry, traceId: span.traceId, spanId: span.spanId })
  )
})

/** Whether the stream a log line goes to (stderr or stdout) is a terminal: a person reading, not a file or a pipe. */
const streamIsTerminal = (stderr: boolean) => (stderr ? process.stderr : process.stdout).isTTY === true

/**
 * The `text` format: at a terminal, Effect's readable lines (its default logger); written to a file, a pipe or a
 * journal, one logfmt line an entry (Effect's `formatLogFmt`: timestamp, level, fiber, message, cause, log spans,
 * annotations), which a log shipper or `grep` takes a line at a time and which costs the server less than the
 * readable form (whose annotations Node's `util.inspect` lays out over several lines; benchmarks.md, eleventh
 * session). On stdout, or on stderr where `Logger.LogToStderr` says so.
 */
export const textLogger = (isTerminal: (stderr: boolean) => boolean = streamIsTerminal) => {
  // A stream is a terminal or not for the process's life: asked once, not at every line.
  const terminal = { stdout: isTerminal(false), stderr: isTerminal(true) }
  return Logger.make((options) =>
    terminal[options.fiber.getRef(Logger.LogToStderr) ? "stderr" : "stdout"]
      ? Logger.defaultLogger.log(options)
      : writeLine(options.fiber, Logger.formatLogFmt.log(options))
  )
}

/**
 * `TENDERS_LOG_FORMAT`: `text` (`textLogger`) or `json` (`jsonLineLogger`), each besides Effect's `tracerLogger` (a
 * log line is an event of the span it was written in, when traces are recorded). Lines below `TENDERS_LOG_LEVEL`
 * (`info` unless set) are not written. The lines still waiting (`writeLine`) are written when the layer is released,
 * or when the process exits while it holds them (`process.exit` from elsewhere).
 */
export const loggingLayer = Layer.unwrap(
  Effect.map(Config.all([logFormatConfig, logLevelConfig]), ([format, level]) =>
    Layer.mergeAll(
      Logger.layer([format === "json" ? jsonLineLogger : textLogger(), Logger.tracerLogger]),
      Layer.succeed(References.MinimumLogLevel, level),
      Layer.effectDiscard(
        Effect.acquireRelease(
          Effect.sync(() => process.on("exit", flushLines)),
          () =>
            Effect.sync(() => {
              process.off("exit", flushLines)
              flushLines()
            })
        )
      )
    )
  )
)
