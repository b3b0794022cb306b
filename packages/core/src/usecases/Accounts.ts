import { DateTime, Effect, Option, Result } from "effect"
import type { Account } from "../Account.ts"
import { parseEmailAddress } from "../EmailAddress.ts"
import { InvalidInput, NotFound, PlanRequired } from "../Errors.ts"
import { type Plan, planRules } from "../Plan.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { monthOf } from "../Time.ts"

/** The largest monthly call limit an account may be given (the usage counter's range). */
export const maxMonthlyLimit = 2_147_483_647

/** An e-mail address in its normal form (core's one address rule), or InvalidInput saying what is wrong. */
export const emailAddressOf = (text: string) =>
  Result.match(parseEmailAddress(text), {
    onFailure: (message) => Effect.fail(new InvalidInput({ message })),
    onSuccess: Effect.succeed
  })

/** The account with this e-mail (NotFound when there is none; InvalidInput when it is not an address). */
export const accountByEmail = Effect.fn("accountByEmail")(function* (text: string) {
  const email = yield* emailAddressOf(text)
  const found = yield* (yield* AccountStore).findAccount(email)
  if (Option.isNone(found)) return yield* new NotFound({ message: `no account for ${email}` })
  return found.value
})

/**
 * Creates or updates an account: a new account needs a plan; `monthlyLimit` overrides the plan's monthly calls
 * (null returns to the plan's, undefined keeps what the account has).
 */
export const saveAccount = Effect.fn("saveAccount")(function* (input: {
  readonly email: string
  readonly plan: Plan | undefined
  readonly monthlyLimit: number | null | undefined
}) {
  const email = yield* emailAddressOf(input.email)
  const limit = input.monthlyLimit
  if (
    limit !== undefined &&
    limit !== null &&
    !(Number.isSafeInteger(limit) && limit >= 0 && limit <= maxMonthlyLimit)
  ) {
    return yield* new InvalidInput({ message: `a monthly limit is a whole number from 0 to ${maxMonthlyLimit}` })
  }
  const store = yield* AccountStore
  if (input.plan === undefined && Option.isNone(yield* store.findAccount(email))) {
    return yield* new InvalidInput({ message: `${email} has no account yet: a new account needs a plan` })
  }
  const account: Account = yield* store.saveAccount({ ...input, email })
  return account
})

/** Adds a $5 pack of calls to the account for the current UTC month; packs are for paid plans only. */
export const addPack = Effect.fn("addPack")(function* (text: string) {
  const account = yield* accountByEmail(text)
  const email = account.email
  if (!planRules[account.plan].packs) {
    return yield* new PlanRequired({
      message: `${email} is on the ${account.plan} plan: packs are for the Pro and Business plans; upgrade it first`
    })
  }
  const packs = yield* (yield* AccountStore).addPack(account.id, monthOf(yield* DateTime.now))
  return { account, packs }
})
