import { DateTime, Effect, Metric, Option } from "effect"
import {
  outboxDepth,
  outboxOldestDueAge,
  seriesOf,
  sourceLag,
  sourceLastSuccess,
  storeConnections
} from "../Metrics.ts"
import { DeliveryStore } from "../ports/DeliveryStore.ts"
import { SourceStatusStore } from "../ports/SourceStatusStore.ts"
import { StorePool } from "../ports/StorePool.ts"
import { sourceCodes } from "../Source.ts"

const lastSuccessOf = seriesOf(sourceLastSuccess, ["source"])
const lagOf = seriesOf(sourceLag, ["source"])
const connectionsOf = seriesOf(storeConnections, ["state"])

const secondsBetween = (from: DateTime.Utc, to: DateTime.Utc) =>
  Math.max(0, (DateTime.toEpochMillis(to) - DateTime.toEpochMillis(from)) / 1000)

/**
 * Sets the gauges read from the store, as of now: each source's last success and lag (the fleet's, from the run
 * history), the outbox's depth and the age of its oldest due delivery, and this process's connections when the store
 * tells them (`StorePool`). Cheap queries, run at each scrape.
 */
export const observeStore = Effect.fn("observeStore")(function* () {
  const now = yield* DateTime.now
  const [runs, backlog] = yield* Effect.all(
    [(yield* SourceStatusStore).summaries, (yield* DeliveryStore).backlog(now)],
    { concurrency: 2 }
  )
  for (const source of sourceCodes) {
    const last = runs.find((run) => run.code === source)?.lastSuccessAt ?? null
    yield* Metric.update(lastSuccessOf(source), last === null ? 0 : DateTime.toEpochMillis(last) / 1000)
    if (last !== null) yield* Metric.update(lagOf(source), secondsBetween(last, now))
  }
  yield* Metric.update(outboxDepth, backlog.depth)
  yield* Metric.update(outboxOldestDueAge, backlog.oldestDueAt === null ? 0 : secondsBetween(backlog.oldestDueAt, now))
  const pool = yield* Effect.serviceOption(StorePool)
  const usage = Option.isSome(pool) ? yield* pool.value.usage : undefined
  if (usage !== undefined) {
    yield* Metric.update(connectionsOf("in_use"), usage.inUse)
    yield* Metric.update(connectionsOf("idle"), usage.idle)
  }
})
