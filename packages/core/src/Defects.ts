import { Cause, Effect } from "effect"
import { Internal } from "./Errors.ts"
import { recordedSpanOf } from "./RecordedSpan.ts"

/**
 * The one answer to a server-side fault (500 internal): logs `cause` under `what` with a trace id (the recorded span's
 * when there is one, so the log line and the trace meet; else a random UUID, which still ties the answer to its log
 * line) and returns the `Internal` error that names the id and nothing else. An interruption is not a fault: it is
 * passed on as it is.
 */
export const reportDefect = Effect.fnUntraced(function* <E>(cause: Cause.Cause<E>, what: string) {
  if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
  const traceId = yield* Effect.withFiber((fiber) =>
    Effect.succeed(recordedSpanOf(fiber)?.traceId ?? crypto.randomUUID())
  )
  yield* Effect.logError(what, { traceId }, cause)
  return new Internal({ message: `Internal error; retry later (trace ${traceId})` })
})
