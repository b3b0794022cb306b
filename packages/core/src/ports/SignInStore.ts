import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Account } from "../Account.ts"
import type { AccountId } from "../Ids.ts"
import type { UiLanguage } from "../Language.ts"
import type { SignInMessage } from "./Notifier.ts"

/** The mail of a sign-in link, kept with the link until it is sent (its URL holds the link's secret). */
export interface SignInMail {
  readonly url: string
  readonly language: UiLanguage
}

/** A sign-in mail leased for one attempt: `id` names it to the store, `expiresAt` is its link's. */
export interface ClaimedSignInMail {
  readonly id: string
  /** Attempts made, this one included. */
  readonly attempts: number
  readonly expiresAt: DateTime.Utc
  readonly message: SignInMessage
}

/**
 * Sign-in links, their mails, and dashboard sessions. Secrets (a link's token, a session's token) are passed in clear
 * and stored hashed; a stored row never gives them back, but a link's mail keeps its URL until it is sent or given up.
 */
export class SignInStore extends Context.Service<
  SignInStore,
  {
    /** Keeps a new sign-in link for `email`, and its mail to send when `mail` is given (in one write). */
    readonly saveLink: (link: {
      readonly token: string
      readonly email: string
      readonly createdAt: DateTime.Utc
      readonly expiresAt: DateTime.Utc
      readonly mail: SignInMail | undefined
    }) => Effect.Effect<void>
    /**
     * Leases up to `limit` mails due at `now` whose link has not expired, until `leaseUntil`: a leased mail is not
     * handed to anyone else. A due mail whose link expired is given up.
     */
    readonly claimMails: (
      now: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedSignInMail>>
    /** The mail was sent: its URL is forgotten. */
    readonly markMailSent: (id: string) => Effect.Effect<void>
    /** The attempt failed for now: try again at `at`. */
    readonly rescheduleMail: (id: string, at: DateTime.Utc, error: string) => Effect.Effect<void>
    /** The mail will not be sent: its URL is forgotten. */
    readonly dropMail: (id: string, error: string) => Effect.Effect<void>
    /** The address of an unused link that has not expired at `now` (the link stays unused). */
    readonly peekLink: (token: string, now: DateTime.Utc) => Effect.Effect<Option.Option<string>>
    /** Marks an unused, unexpired link used and gives its address; none when used, expired or unknown. Atomic. */
    readonly useLink: (token: string, now: DateTime.Utc) => Effect.Effect<Option.Option<string>>
    readonly createSession: (session: {
      readonly token: string
      readonly accountId: AccountId
      readonly createdAt: DateTime.Utc
      readonly expiresAt: DateTime.Utc
    }) => Effect.Effect<void>
    /** The account of a session that has not ended nor expired at `now`. */
    readonly sessionAccount: (token: string, now: DateTime.Utc) => Effect.Effect<Option.Option<Account>>
    /** Ends a session (sign-out); nothing when there is none. */
    readonly endSession: (token: string) => Effect.Effect<void>
    /** Ends every session of an account (sign-out everywhere): how many there were. */
    readonly endSessions: (accountId: AccountId) => Effect.Effect<number>
  }
>()("@tenders/core/SignInStore") {}
