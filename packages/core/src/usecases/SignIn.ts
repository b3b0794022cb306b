import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { Unauthorized } from "../Errors.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import type { UiLanguage } from "../Language.ts"
import { SignInStore } from "../ports/SignInStore.ts"
import { newOpaqueToken } from "../Secrets.ts"
import { takeUses, type UseLimit } from "../Throttle.ts"
import { emailAddressOf } from "./Accounts.ts"
import { SignInMailer } from "./SignInMailer.ts"

/** How long a sign-in link works (once). */
export const signInLinkTtl = Duration.minutes(15)

/** How long a dashboard session lasts from its sign-in (then the person signs in again). */
export const sessionTtl = Duration.days(14)

/**
 * Sign-in links that may be asked for, each an hour: 5 for one address from one client (so that others' requests
 * never use up the owner's), 20 by one client (whatever the addresses), and 30 for one address from all clients
 * together (a ceiling on the mail one address can be sent: locking an address out takes six clients at once).
 */
export const signInLimits = {
  perAddressAndClient: { name: "sign-in-address-client", limit: 5, window: Duration.hours(1) },
  perClient: { name: "sign-in-client", limit: 20, window: Duration.hours(1) },
  perAddress: { name: "sign-in-address", limit: 30, window: Duration.hours(1) }
} as const satisfies Record<string, UseLimit>

/** Whether a first sign-in creates an account (`TENDERS_SIGNUP=open`) or only existing accounts sign in. */
export type SignUp = "open" | "closed"

/** Too many sign-in links asked for this address or by this client; `retryAfter` seconds until one more is allowed. */
export class SignInThrottled extends Schema.TaggedError<SignInThrottled>()("SignInThrottled", {
  message: Schema.String,
  retryAfter: Schema.Int
}) {}

/** A sign-in link of an address that has no account, on a server whose sign-up is closed. */
export class SignUpClosed extends Schema.TaggedError<SignUpClosed>()("SignUpClosed", { message: Schema.String }) {}

/**
 * Asks for a sign-in link: checks the address (core's address rule) and the limits, then keeps a new link and, when
 * the address has an account or sign-up is open, queues its mail for the background sender (`linkUrl` makes its URL
 * from its token). It answers before any mail is sent, and alike whether or not the address has an account; only a
 * malformed address (InvalidInput) or too many links (SignInThrottled) differ. Gives the address in its normal form.
 */
export const requestSignIn = Effect.fn("requestSignIn")(function* (input: {
  readonly email: string
  readonly client: string
  readonly signUp: SignUp
  readonly language: UiLanguage
  readonly linkUrl: (token: string) => string
}) {
  const email = yield* emailAddressOf(input.email)
  const wait = yield* takeUses([
    [signInLimits.perAddressAndClient, `${email} ${input.client}`],
    [signInLimits.perClient, input.client],
    [signInLimits.perAddress, email]
  ])
  if (wait > 0) {
    return yield* new SignInThrottled({
      message: `Too many sign-in links were asked for; try again in ${Math.ceil(wait / 60)} minute(s).`,
      retryAfter: wait
    })
  }
  const send = input.signUp === "open" || Option.isSome(yield* (yield* AccountStore).findAccount(email))
  const now = yield* DateTime.now
  // The link is kept even when nothing is sent, so that both answers do the same work.
  const token = newOpaqueToken()
  yield* (yield* SignInStore).saveLink({
    token,
    email,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, signInLinkTtl),
    mail: send ? { url: input.linkUrl(token), language: input.language } : undefined
  })
  if (send) yield* (yield* SignInMailer).wake
  return email
})

const linkRefused = () =>
  new Unauthorized({ message: "This sign-in link was already used or has expired: ask for a new one." })

/** The address a sign-in link is for, while it can still be used (Unauthorized when it cannot). */
export const signInLinkAddress = Effect.fn("signInLinkAddress")(function* (token: string) {
  const found = yield* (yield* SignInStore).peekLink(token, yield* DateTime.now)
  if (Option.isNone(found)) return yield* linkRefused()
  return found.value
})

/**
 * Uses a sign-in link (once): the account of its address, created on the Free plan at a first sign-in when sign-up
 * is open, and a new session for it. Unauthorized for a used, expired or unknown link; SignUpClosed for a new address
 * when sign-up is closed.
 */
export const completeSignIn = Effect.fn("completeSignIn")(function* (token: string, signUp: SignUp) {
  const store = yield* SignInStore
  const now = yield* DateTime.now
  const email = yield* store.useLink(token, now)
  if (Option.isNone(email)) return yield* linkRefused()
  const accounts = yield* AccountStore
  const existing = yield* accounts.findAccount(email.value)
  if (Option.isNone(existing) && signUp === "closed") {
    return yield* new SignUpClosed({ message: "Sign-up is closed on this server: ask its operator for an account." })
  }
  const account = Option.isSome(existing)
    ? existing.value
    : yield* accounts.saveAccount({ email: email.value, plan: "free", monthlyLimit: undefined })
  const session = newOpaqueToken()
  yield* store.createSession({
    token: session,
    accountId: account.id,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, sessionTtl)
  })
  return { session, account }
})

/** The account of a dashboard session (Unauthorized when it ended or expired). */
export const sessionAccount = Effect.fn("sessionAccount")(function* (token: string) {
  const found = yield* (yield* SignInStore).sessionAccount(token, yield* DateTime.now)
  if (Option.isNone(found)) return yield* new Unauthorized({ message: "Your session has ended: sign in again." })
  return found.value
})
