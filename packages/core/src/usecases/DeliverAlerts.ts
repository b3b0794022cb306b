import { DateTime, Duration, Effect } from "effect"
import { DeliveryStore } from "../ports/DeliveryStore.ts"
import { Notifier } from "../ports/Notifier.ts"

/** Waits between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — over 27 hours before giving up. */
export const retryDelays: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5), Duration.minutes(5), Duration.minutes(30), Duration.hours(2), Duration.hours(5), Duration.hours(10), Duration.hours(10)
]

/** How long one attempt may hold a delivery before another replica may take it (webhooks time out at 10 s). */
const lease = Duration.minutes(2)

/**
 * Works the outbox once: each due delivery is leased (so no two replicas send it), attempted, and then marked
 * delivered, rescheduled with backoff (same webhook-id), or failed (410 Gone also disables the webhook).
 */
export const deliverDue = Effect.fn("deliverDue")(function*(limit = 100) {
  const store = yield* DeliveryStore
  const notifier = yield* Notifier
  const now = yield* DateTime.now
  const due = yield* store.claimDue(now, DateTime.addDuration(now, lease), limit)
  let delivered = 0
  for (const delivery of due) {
    const outcome = delivery.channel === "email"
      ? yield* notifier.sendEmail(delivery.digest)
      : yield* notifier.sendWebhook(delivery)
    if (outcome._tag === "Delivered") {
      delivered++
      yield* store.markDelivered(delivery.id)
    } else if (outcome._tag === "Failed") {
      yield* store.markFailed(delivery.id, outcome.reason, outcome.disable && delivery.channel === "webhook" ? delivery.watchlistId : null)
    } else {
      const delay = retryDelays[delivery.attempts]
      if (delay === undefined) yield* store.markFailed(delivery.id, `gave up after ${delivery.attempts + 1} attempts: ${outcome.reason}`, null)
      else yield* store.reschedule(delivery.id, DateTime.addDuration(yield* DateTime.now, delay), outcome.reason)
    }
  }
  return { attempted: due.length, delivered }
})
