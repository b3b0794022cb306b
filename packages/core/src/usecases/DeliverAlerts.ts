import { DateTime, Duration, Effect, Metric } from "effect"
import { deliveryAttempts, mails, seriesOf } from "../Metrics.ts"
import { DeliveryStore } from "../ports/DeliveryStore.ts"
import { Notifier } from "../ports/Notifier.ts"

/** Waits between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — over 27 hours before giving up. */
export const retryDelays: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(10)
]

const attemptsOf = seriesOf(deliveryAttempts, ["channel", "outcome"])
const mailsOf = seriesOf(mails, ["kind", "outcome"])

/** Counts one attempt, and a digest's mail as sent or failed. */
const countAttempt = (channel: "email" | "webhook", outcome: "delivered" | "retry" | "failed") =>
  Effect.all([
    Metric.update(attemptsOf(channel, outcome), 1),
    channel === "email" ? Metric.update(mailsOf("digest", outcome === "delivered" ? "sent" : "failed"), 1) : Effect.void
  ])

/** Options of one pass over the outbox. */
export interface DeliverOptions {
  /** At most this many deliveries per pass (100). */
  readonly limit?: number
  /**
   * How long one attempt holds a delivery before another replica (or this server after a crash) may take it
   * again: 2 minutes by default, comfortably above the 10 s webhook timeout.
   */
  readonly lease?: Duration.Duration
}

/**
 * Works the outbox once: each due delivery is leased (so no two replicas send it), attempted, and then marked
 * delivered, rescheduled with backoff (same webhook-id, new signed timestamp), or failed (410 Gone also disables
 * the webhook).
 */
export const deliverDue = Effect.fn("deliverDue")(function* (options: DeliverOptions = {}) {
  const store = yield* DeliveryStore
  const notifier = yield* Notifier
  const now = yield* DateTime.now
  const due = yield* store.claimDue(
    now,
    DateTime.addDuration(now, options.lease ?? Duration.minutes(2)),
    options.limit ?? 100
  )
  let delivered = 0
  for (const delivery of due) {
    const outcome =
      delivery.channel === "email"
        ? yield* notifier.sendEmail(delivery.digest)
        : // Standard Webhooks: the id stays, the signed timestamp is this attempt's (receivers refuse old ones).
          yield* notifier.sendWebhook({
            ...delivery,
            timestamp: Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000)
          })
    yield* countAttempt(
      delivery.channel,
      outcome._tag === "Delivered"
        ? "delivered"
        : outcome._tag === "Retry" && retryDelays[delivery.attempts] !== undefined
          ? "retry"
          : "failed"
    )
    if (outcome._tag === "Delivered") {
      delivered++
      yield* store.markDelivered(delivery.id)
    } else if (outcome._tag === "Failed") {
      yield* store.markFailed(
        delivery.id,
        outcome.reason,
        outcome.disable && delivery.channel === "webhook" ? delivery.watchlistId : null
      )
    } else {
      const delay = retryDelays[delivery.attempts]
      if (delay === undefined)
        yield* store.markFailed(delivery.id, `gave up after ${delivery.attempts + 1} attempts: ${outcome.reason}`, null)
      else yield* store.reschedule(delivery.id, DateTime.addDuration(yield* DateTime.now, delay), outcome.reason)
    }
  }
  return { attempted: due.length, delivered }
})
