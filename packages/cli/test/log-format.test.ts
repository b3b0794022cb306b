// The log lines: JSON, one object a line with the recorded span's trace id; text, one logfmt line an entry where a
// file or a pipe takes them and Effect's readable lines at a terminal; on stdout, or on stderr where the command says
// so (`mcp --stdio`, whose stdout carries only the protocol).
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Console, Effect, Exit, Logger, References } from "effect"
import { jsonLineLogger, loggingLayer, textLogger } from "../src/LogFormat.ts"
import { tracingLayer } from "../src/Observability.ts"

/** A console that keeps the lines written to each stream, and each write in order. */
const capture = () => {
  const written = { out: [] as Array<string>, err: [] as Array<string>, writes: [] as Array<string> }
  const write =
    (stream: "out" | "err") =>
    (...args: ReadonlyArray<unknown>) => {
      const text = args.join(" ")
      written.writes.push(`${stream}: ${text}`)
      written[stream].push(...text.split("\n"))
    }
  const console = { ...globalThis.console, log: write("out"), error: write("err") } as unknown as Console.Console
  return { written, console }
}

/** The end of the event loop's turn, when the lines logged in it are written. */
const turnEnds = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("log lines", () => {
  it.effect("as JSON, are one object a line on stdout, with the ids of the span they were logged in", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      yield* Effect.logInfo("Sent HTTP response").pipe(
        Effect.withSpan("request"),
        Effect.provide(Logger.layer([jsonLineLogger])),
        Effect.provideService(Console.Console, console)
      )
      yield* turnEnds
      assert.strictEqual(written.err.length, 0)
      assert.strictEqual(written.out.length, 1)
      const entry = JSON.parse(written.out[0] ?? "") as { message: unknown; level: string; traceId?: string }
      assert.deepStrictEqual([entry.message, entry.level], ["Sent HTTP response", "INFO"])
      assert.match(entry.traceId ?? "", /^[0-9a-f]{32}$/u)
    })
  )

  it.effect("as JSON, name no trace while no span is recorded: serve without an OTLP endpoint records none", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      const noEndpoint = ConfigProvider.layer(ConfigProvider.fromUnknown({}))
      const recording = yield* References.TracerEnabled.pipe(Effect.provide(tracingLayer), Effect.provide(noEndpoint))
      assert.isFalse(recording)
      yield* Effect.logInfo("Sent HTTP response").pipe(
        Effect.withSpan("request"),
        Effect.provide(Logger.layer([jsonLineLogger])),
        Effect.provideService(Console.Console, console),
        Effect.provide(tracingLayer),
        Effect.provide(noEndpoint)
      )
      yield* turnEnds
      const entry = JSON.parse(written.out[0] ?? "") as { message: unknown; traceId?: string; spanId?: string }
      assert.strictEqual(entry.message, "Sent HTTP response")
      assert.isUndefined(entry.traceId)
      assert.isUndefined(entry.spanId)
    })
  )

  it.effect("go to stderr where Logger.LogToStderr says so, never to stdout", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      yield* Effect.logWarning("MCP stdio error").pipe(
        Effect.provide(Logger.layer([jsonLineLogger])),
        Effect.provideService(Console.Console, console),
        Effect.provideService(Logger.LogToStderr, true)
      )
      yield* turnEnds
      assert.strictEqual(written.out.length, 0)
      assert.strictEqual((JSON.parse(written.err[0] ?? "") as { message: unknown }).message, "MCP stdio error")
    })
  )

  it.effect("are written from TENDERS_LOG_LEVEL up: info by default, warn drops the requests' lines", () =>
    Effect.gen(function* () {
      const logged = (env: Record<string, string>) =>
        Effect.gen(function* () {
          const { written, console } = capture()
          yield* Effect.all([
            Effect.logDebug("detail"),
            Effect.logInfo("Sent HTTP response"),
            Effect.logWarning("kept")
          ]).pipe(
            Effect.provide(loggingLayer),
            Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ TENDERS_LOG_FORMAT: "json", ...env }))),
            Effect.provideService(Console.Console, console)
          )
          // Written when the logging layer was released, before the turn ends.
          return written.out.map((line) => (JSON.parse(line) as { message: unknown }).message)
        })
      assert.deepStrictEqual(yield* logged({}), ["Sent HTTP response", "kept"])
      assert.deepStrictEqual(yield* logged({ TENDERS_LOG_LEVEL: "warn" }), ["kept"])
      assert.deepStrictEqual(yield* logged({ TENDERS_LOG_LEVEL: "debug" }), ["detail", "Sent HTTP response", "kept"])
      assert.deepStrictEqual(yield* logged({ TENDERS_LOG_LEVEL: "none" }), [])
      const refused = yield* Effect.exit(logged({ TENDERS_LOG_LEVEL: "verbose" }))
      assert.isTrue(Exit.isFailure(refused))
      assert.include(String(Exit.isFailure(refused) ? refused.cause : ""), "TENDERS_LOG_LEVEL")
    })
  )

  it.effect("as text, are one logfmt line an entry when written to a file or a pipe, on the stream asked for", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      const logged = (toStderr: boolean) =>
        Effect.logInfo("Sent HTTP response").pipe(
          Effect.annotateLogs({ "http.method": "GET", "http.status": 200 }),
          Effect.provide(Logger.layer([textLogger(() => false)])),
          Effect.provideService(Console.Console, console),
          Effect.provideService(Logger.LogToStderr, toStderr)
        )
      yield* logged(false)
      yield* logged(true)
      yield* turnEnds
      const line =
        /^timestamp=\S+ level=INFO fiber=#\d+ message="Sent HTTP response" http\.method=GET http\.status=200$/u
      assert.strictEqual(written.out.length, 1)
      assert.match(written.out[0] ?? "", line)
      assert.strictEqual(written.err.length, 1)
      assert.match(written.err[0] ?? "", line)
    })
  )

  it.effect("are written when the turn they were logged in ends, a run of them on one stream in one write", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      const logged = (message: string, toStderr: boolean) =>
        Effect.logInfo(message).pipe(Effect.provideService(Logger.LogToStderr, toStderr))
      yield* Effect.all([logged("a", false), logged("b", false), logged("c", true), logged("d", false)]).pipe(
        Effect.provide(Logger.layer([textLogger(() => false)])),
        Effect.provideService(Console.Console, console)
      )
      assert.deepStrictEqual(written.writes, [])
      yield* turnEnds
      const messages = written.writes.map((write) =>
        write.replaceAll(/timestamp=\S+ level=INFO fiber=#\d+ message=/gu, "")
      )
      assert.deepStrictEqual(messages, ["out: a\nb", "err: c", "out: d"])
    })
  )

  it.effect("are lost, not thrown, where a console cannot write them, and the other stream's are still written", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      const broken = {
        ...console,
        log: () => {
          throw new Error("EPIPE")
        }
      } as unknown as Console.Console
      yield* Effect.all([
        Effect.logInfo("lost"),
        Effect.logInfo("kept").pipe(Effect.provideService(Logger.LogToStderr, true))
      ]).pipe(Effect.provide(Logger.layer([textLogger(() => false)])), Effect.provideService(Console.Console, broken))
      yield* turnEnds
      assert.deepStrictEqual(
        written.err.map((line) => line.replace(/^.* message=/u, "")),
        ["kept"]
      )
    })
  )

  it.effect("as text, are Effect's readable lines at a terminal", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      yield* Effect.logInfo("Sent HTTP response").pipe(
        Effect.annotateLogs({ "http.status": 200 }),
        Effect.provide(Logger.layer([textLogger(() => true)])),
        Effect.provideService(Console.Console, console)
      )
      assert.strictEqual(written.out.length, 1)
      assert.match(written.out[0] ?? "", /^\[[\d:.]+\] INFO \(#\d+\): Sent HTTP response /u)
      assert.notInclude(written.out[0] ?? "", "level=")
    })
  )
})
