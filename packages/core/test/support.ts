import { Effect, Layer, Metric } from "effect"
import { TestClock } from "effect/testing"
import { AccountStore, type Plan, Rates } from "../src/index.ts"
import { isoFromNow, memoryStore, notifierRecorder, type NotifierScript } from "../src/testing/index.ts"

/** The instant every use-case test starts at, on the TestClock. */
export const start = Date.parse("2026-11-23T09:00:00Z")

/** An ISO instant `days` after `start` (fractional days allowed). */
export const inDays = (days: number): string => isoFromNow(days, start)

/** Every store port in memory over one state, the bundled rates, and a recording notifier. */
export const world = (script: NotifierScript = {}) =>
  Layer.mergeAll(memoryStore, Rates.bundled, notifierRecorder(script))

/** Sets the TestClock to `start`. */
export const atStart = TestClock.setTime(start)

/** An account on `plan`. */
export const account = Effect.fn("test.account")(function* (email: string, plan: Plan) {
  return yield* (yield* AccountStore).saveAccount({ email, plan, monthlyLimit: null })
})

/** The value of one series now: a counter's count, a gauge's value, a histogram's number of observations. */
export const sample = (id: string, labels: Record<string, string> = {}) =>
  Effect.map(Metric.snapshot, (all) => {
    const found = all.find(
      (s) => s.id === id && Object.entries(labels).every(([key, value]) => s.attributes?.[key] === value)
    )
    if (found === undefined) return undefined
    switch (found.type) {
      case "Counter":
        return Number(found.state.count)
      case "Gauge":
        return Number(found.state.value)
      case "Histogram":
        return found.state.count
      default:
        return undefined
    }
  })
