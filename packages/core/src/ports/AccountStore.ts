import { Context, type Effect, type Option, Schema } from "effect"
import type { Account, KeyInfo, KeyKind, QuotaDecision } from "../Account.ts"
import type { AccountId, KeyId } from "../Ids.ts"
import type { Plan } from "../Plan.ts"

/** The store cannot write the call counter now (a full disk, a read-only store); reading still works. */
export class QuotaCounterUnavailable extends Schema.TaggedError<QuotaCounterUnavailable>()("QuotaCounterUnavailable", {
  message: Schema.String
}) {}

/** The calls counted on one UTC day (`YYYY-MM-DD`). */
export interface DayUsage {
  readonly day: string
  readonly calls: number
}

/** Accounts, keys and monthly usage. */
export class AccountStore extends Context.Service<
  AccountStore,
  {
    /** The account owning an active key of this kind with this secret. */
    readonly authenticate: (secret: string, kind: KeyKind) => Effect.Effect<Option.Option<Account>>
    /**
     * Counts one call on `day` (`YYYY-MM-DD`, UTC) in its month and in the day's count, unless the account already
     * used `limit` plus its packs that month; both counts move together, atomic under concurrent calls.
     */
    readonly consumeCall: (
      accountId: AccountId,
      day: string,
      limit: number
    ) => Effect.Effect<QuotaDecision, QuotaCounterUnavailable>
    /**
     * `authenticate`, and `consumeCall` for the key's account with its own limit (`monthlyLimit`, else `limits` of
     * its plan), in one round trip where the store can (concurrent calls of one key may share it): the account, and
     * the decision when the call was counted.
     * Not counted (none) means only that the caller must charge it (`consumeCall`): the month's first call, the
     * limit reached, a store that cannot write, or a store without such a path.
     */
    readonly authenticateAndCount: (
      secret: string,
      kind: KeyKind,
      day: string,
      limits: Readonly<Record<Plan, number>>
    ) => Effect.Effect<Option.Option<{ readonly account: Account; readonly counted: Option.Option<QuotaDecision> }>>
    /** Calls used in `month` and the packs bought for it. */
    readonly usage: (
      accountId: AccountId,
      month: string
    ) => Effect.Effect<{ readonly calls: number; readonly packs: number }>
    /** The calls counted on each day of `month` (`YYYY-MM`) that has any, in day order. */
    readonly dailyUsage: (accountId: AccountId, month: string) => Effect.Effect<ReadonlyArray<DayUsage>>
    readonly findAccount: (email: string) => Effect.Effect<Option.Option<Account>>
    /** Creates or updates an account; `plan` is required for a new one (checked by the caller). */
    readonly saveAccount: (input: {
      readonly email: string
      readonly plan: Plan | undefined
      readonly monthlyLimit: number | null | undefined
    }) => Effect.Effect<Account>
    readonly createKey: (
      accountId: AccountId,
      kind: KeyKind
    ) => Effect.Effect<{ readonly keyId: KeyId; readonly key: string }>
    /** Every key (operators), or one account's (the dashboard), oldest first. */
    readonly listKeys: (accountId?: AccountId) => Effect.Effect<ReadonlyArray<KeyInfo>>
    /** Marks a key revoked; false when no such key exists (or, with `accountId`, it is another account's). */
    readonly revokeKey: (keyId: KeyId, accountId?: AccountId) => Effect.Effect<boolean>
    readonly addPack: (accountId: AccountId, month: string) => Effect.Effect<number>
    /** The account's webhook signing secret (`whsec_...`), created when missing or replaced when `rotate`. */
    readonly webhookSecret: (accountId: AccountId, rotate: boolean) => Effect.Effect<string>
  }
>()("@tenders/core/AccountStore") {}
