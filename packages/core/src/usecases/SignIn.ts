import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { InvalidInput, Unauthorized } from "../Errors.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { Notifier, type UiLanguage } from "../ports/Notifier.ts"
import { SignInStore } from "../ports/SignInStore.ts"
import { emailProblem } from "./Accounts.ts"

/** How long a sign-in link works (once). */
export const signInLinkTtl = Duration.minutes(15)

/** How long a dashboard session lasts from its sign-in (then the person signs in again). */
export const sessionTtl = Duration.days(14)

/** Sign-in links asked within `window`: at most `perAddress` for one address, `perClient` by one client. */
export const signInLimits = { window: Duration.hours(1), perAddress: 5, perClient: 20 } as const

/** Whether a first sign-in creates an account (`TENDERS_SIGNUP=open`) or only existing accounts sign in. */
export type SignUp = "open" | "closed"

/** Too many sign-in links asked for this address or by this client; `retryAfter` seconds until one more is allowed. */
export class SignInThrottled extends Schema.TaggedError<SignInThrottled>()("SignInThrottled", {
  message: Schema.String,
  retryAfter: Schema.Int
}) {}

/** 32 random bytes, base64url: a sign-in link's or a session's secret. */
export const newOpaqueToken = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/u, "")
}

/** The form of an address that sign-in keys on: trimmed, lower case. */
export const signInAddress = (email: string): string => email.trim().toLowerCase()

/**
 * Asks for a sign-in link: checks the address and the rate limits, then, when the address has an account or sign-up
 * is open, keeps a new link and sends it (`linkUrl` makes its URL from its token). The answer is the same whether
 * or not the address has an account; only a malformed address (400) or too many links (throttled) differ.
 */
export const requestSignIn = Effect.fn("requestSignIn")(function* (input: {
  readonly email: string
  readonly client: string
  readonly signUp: SignUp
  readonly language: UiLanguage
  readonly linkUrl: (token: string) => string
}) {
  const email = signInAddress(input.email)
  const problem = emailProblem(email)
  if (problem !== undefined) return yield* new InvalidInput({ message: problem })
  const store = yield* SignInStore
  const now = yield* DateTime.now
  const asked = yield* store.linksSince(email, input.client, DateTime.subtractDuration(now, signInLimits.window))
  if (asked.address >= signInLimits.perAddress || asked.client >= signInLimits.perClient) {
    return yield* new SignInThrottled({
      message: "Too many sign-in links were asked for; try again in an hour.",
      retryAfter: Duration.toSeconds(signInLimits.window)
    })
  }
  const known = Option.isSome(yield* (yield* AccountStore).findAccount(email))
  // The link is recorded even when nothing is sent, so the limits count every request alike.
  const token = newOpaqueToken()
  yield* store.saveLink({
    token,
    email,
    client: input.client,
    createdAt: now,
    expiresAt: DateTime.addDuration(now, signInLinkTtl)
  })
  if (!known && input.signUp === "closed") return
  const sent = yield* (yield* Notifier).sendSignIn({
    to: email,
    url: input.linkUrl(token),
    minutes: Duration.toMinutes(signInLinkTtl),
    language: input.language
  })
  if (sent._tag !== "Delivered") yield* Effect.logWarning(`A sign-in link could not be sent: ${sent.reason}`)
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
 * is open, and a new session for it. Unauthorized for a used, expired or unknown link, or a new address when
 * sign-up is closed.
 */
export const completeSignIn = Effect.fn("completeSignIn")(function* (token: string, signUp: SignUp) {
  const store = yield* SignInStore
  const now = yield* DateTime.now
  const email = yield* store.useLink(token, now)
  if (Option.isNone(email)) return yield* linkRefused()
  const accounts = yield* AccountStore
  const existing = yield* accounts.findAccount(email.value)
  if (Option.isNone(existing) && signUp === "closed") {
    return yield* new Unauthorized({ message: "Sign-up is closed on this server: ask its operator for an account." })
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
