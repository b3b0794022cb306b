// The JSON log lines: one object a line with the span's trace id, on stdout, or on stderr where the command says so
// (`mcp --stdio`, whose stdout carries only the protocol).
import { assert, describe, it } from "@effect/vitest"
import { Console, Effect, Logger } from "effect"
import { jsonLineLogger } from "../src/LogFormat.ts"

/** A console that keeps what was written to each stream. */
const capture = () => {
  const written = { out: [] as Array<string>, err: [] as Array<string> }
  const console = {
    ...globalThis.console,
    log: (...args: ReadonlyArray<unknown>) => void written.out.push(args.join(" ")),
    error: (...args: ReadonlyArray<unknown>) => void written.err.push(args.join(" "))
  } as unknown as Console.Console
  return { written, console }
}

describe("JSON log lines", () => {
  it.effect("are one object a line on stdout, with the trace and span ids of the span they were logged in", () =>
    Effect.gen(function* () {
      const { written, console } = capture()
      yield* Effect.logInfo("Sent HTTP response").pipe(
        Effect.withSpan("request"),
        Effect.provide(Logger.layer([jsonLineLogger])),
        Effect.provideService(Console.Console, console)
      )
      assert.strictEqual(written.err.length, 0)
      assert.strictEqual(written.out.length, 1)
      const entry = JSON.parse(written.out[0] ?? "") as { message: unknown; level: string; traceId?: string }
      assert.deepStrictEqual([entry.message, entry.level], ["Sent HTTP response", "INFO"])
      assert.match(entry.traceId ?? "", /^[0-9a-f]{32}$/u)
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
      assert.strictEqual(written.out.length, 0)
      assert.strictEqual((JSON.parse(written.err[0] ?? "") as { message: unknown }).message, "MCP stdio error")
    })
  )
})
