import { Context, DateTime, Duration, Effect, Layer, Metric, Queue } from "effect"
import { mails, seriesOf } from "../Metrics.ts"
import { Notifier } from "../ports/Notifier.ts"
import { SignInStore } from "../ports/SignInStore.ts"

/** Waits between attempts at a sign-in mail; none after its link expired (15 minutes). */
export const signInMailRetries: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.seconds(30),
  Duration.minutes(2),
  Duration.minutes(5)
]

const mailsOf = seriesOf(mails, ["kind", "outcome"])

/** How long one attempt holds a sign-in mail before another sender may take it (over the SMTP timeouts). */
export const signInMailLease = Duration.minutes(2)

/**
 * Sends the sign-in mails that are due, once: each is leased (no two senders send it), sent, and then forgotten,
 * tried again later, or given up (a refused address, or a link that expires before the next try).
 */
export const sendSignInMails = Effect.fn("sendSignInMails")(function* (limit = 50) {
  const store = yield* SignInStore
  const notifier = yield* Notifier
  const now = yield* DateTime.now
  const due = yield* store.claimMails(now, DateTime.addDuration(now, signInMailLease), limit)
  let sent = 0
  for (const mail of due) {
    const outcome = yield* notifier.sendSignIn(mail.message)
    yield* Metric.update(mailsOf("sign_in", outcome._tag === "Delivered" ? "sent" : "failed"), 1)
    if (outcome._tag === "Delivered") {
      sent++
      yield* store.markMailSent(mail.id)
      continue
    }
    const delay = outcome._tag === "Retry" ? signInMailRetries[mail.attempts - 1] : undefined
    const at = delay === undefined ? undefined : DateTime.addDuration(yield* DateTime.now, delay)
    if (at === undefined || !DateTime.isLessThan(at, mail.expiresAt)) {
      yield* store.dropMail(mail.id, outcome.reason)
      yield* Effect.logWarning(`A sign-in link could not be sent: ${outcome.reason}`)
    } else {
      yield* store.rescheduleMail(mail.id, at, outcome.reason)
    }
  }
  return { attempted: due.length, sent }
})

/** The background sender of sign-in mails: `wake` after queueing one, so it goes out at once. */
export class SignInMailer extends Context.Service<SignInMailer, { readonly wake: Effect.Effect<void> }>()(
  "@tenders/core/SignInMailer"
) {
  /**
   * Sends in a fiber of the layer's scope: at once when woken, and every `every` for the mails to try again and those
   * a stopped replica left leased. A failed pass is logged; the next one tries again.
   */
  static readonly layer = (every: Duration.Input) =>
    Layer.effect(
      SignInMailer,
      Effect.gen(function* () {
        const woken = yield* Queue.sliding<void>(1)
        const pass = sendSignInMails().pipe(
          Effect.catchCause((cause) => Effect.logError("sending sign-in mails failed", cause))
        )
        yield* Effect.forkScoped(
          Effect.forever(Queue.take(woken).pipe(Effect.timeoutOption(every), Effect.andThen(pass)))
        )
        return SignInMailer.of({ wake: Effect.asVoid(Queue.offer(woken, undefined)) })
      })
    )
}
