// The one answer to a server-side fault: its message names a trace id, the recorded span's when traces are recorded.
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, References } from "effect"
import { reportDefect } from "../src/Defects.ts"

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u

/** The trace id a reported fault's message names. */
const tracedId = (message: string) => /\(trace ([^)]+)\)$/u.exec(message)?.[1] ?? ""

describe("reportDefect", () => {
  it.effect("names the span's trace id while traces are recorded, so the answer, its log line and its trace meet", () =>
    Effect.gen(function* () {
      const [internal, span] = yield* Effect.all([
        reportDefect(Cause.die(new Error("boom")), "request failed"),
        Effect.currentSpan
      ]).pipe(Effect.withSpan("request"))
      assert.strictEqual(internal.message, `Internal error; retry later (trace ${span.traceId})`)
      assert.match(span.traceId, /^[0-9a-f]{32}$/u)
    })
  )

  it.effect("names an id of its own, not a placeholder's, while no span is recorded", () =>
    Effect.gen(function* () {
      const first = yield* reportDefect(Cause.die(new Error("boom")), "request failed")
      const second = yield* reportDefect(Cause.die(new Error("boom")), "request failed")
      assert.match(tracedId(first.message), uuid)
      assert.notStrictEqual(tracedId(first.message), tracedId(second.message))
    }).pipe(Effect.withSpan("request"), Effect.provideService(References.TracerEnabled, false))
  )
})
