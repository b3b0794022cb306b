import { DateTime, Effect, Option } from "effect"
import type { Account } from "../Account.ts"
import { InvalidInput, NotFound, PlanRequired } from "../Errors.ts"
import { type Plan, planRules } from "../Plan.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { textProblem } from "../Text.ts"
import { monthOf } from "../Time.ts"

/** The largest monthly call limit an account may be given (the usage counter's range). */
export const maxMonthlyLimit = 2_147_483_647

const emailPattern = /^[^\s@]+@[^\s@]+$/u

/** Why an account e-mail is refused, or undefined. */
export const emailProblem = (email: string): string | undefined =>
  (textProblem(email) ?? emailPattern.test(email)) ? undefined : `"${email}" is not an e-mail address`

/** The account with this e-mail (NotFound when there is none). */
export const accountByEmail = Effect.fn("accountByEmail")(function* (email: string) {
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
  const problem = emailProblem(input.email)
  if (problem !== undefined) return yield* new InvalidInput({ message: problem })
  const limit = input.monthlyLimit
  if (
    limit !== undefined &&
    limit !== null &&
    !(Number.isSafeInteger(limit) && limit >= 0 && limit <= maxMonthlyLimit)
  ) {
    return yield* new InvalidInput({ message: `a monthly limit is a whole number from 0 to ${maxMonthlyLimit}` })
  }
  const store = yield* AccountStore
  if (input.plan === undefined && Option.isNone(yield* store.findAccount(input.email))) {
    return yield* new InvalidInput({ message: `${input.email} has no account yet: a new account needs a plan` })
  }
  const account: Account = yield* store.saveAccount(input)
  return account
})

/** Adds a $5 pack of calls to the account for the current UTC month; packs are for paid plans only. */
export const addPack = Effect.fn("addPack")(function* (email: string) {
  const account = yield* accountByEmail(email)
  if (!planRules[account.plan].packs) {
    return yield* new PlanRequired({
      message: `${email} is on the ${account.plan} plan: packs are for the Pro and Business plans; upgrade it first`
    })
  }
  const packs = yield* (yield* AccountStore).addPack(account.id, monthOf(yield* DateTime.now))
  return { account, packs }
})
