import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Account } from "../Account.ts"
import type { AccountId } from "../Ids.ts"

/**
 * Sign-in links and dashboard sessions. Secrets (a link's token, a session's token) are passed in clear and stored
 * hashed; a stored row never gives them back.
 */
export class SignInStore extends Context.Service<
  SignInStore,
  {
    /** Keeps a new sign-in link for `email`, asked by `client` (an address, for the rate limit). */
    readonly saveLink: (link: {
      readonly token: string
      readonly email: string
      readonly client: string
      readonly createdAt: DateTime.Utc
      readonly expiresAt: DateTime.Utc
    }) => Effect.Effect<void>
    /** How many links were asked since `since` for this address, and by this client. */
    readonly linksSince: (
      email: string,
      client: string,
      since: DateTime.Utc
    ) => Effect.Effect<{ readonly address: number; readonly client: number }>
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
  }
>()("@tenders/core/SignInStore") {}
