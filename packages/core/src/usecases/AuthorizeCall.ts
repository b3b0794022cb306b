import { DateTime, Effect, Option } from "effect"
import { type Account, type KeyKind, keyPattern, type QuotaDecision } from "../Account.ts"
import { QuotaExceeded, Unauthorized } from "../Errors.ts"
import { packSize, type Plan, planRules } from "../Plan.ts"
import { countRefusal } from "../Metrics.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { dayOf, monthOf, secondsUntilMonthEnd } from "../Time.ts"

/** Where a caller stands against the monthly quota: what the RateLimit fields of a response say. */
export interface Quota {
  /** Calls allowed this month: the plan's (or the account's own) limit plus 10,000 per pack. */
  readonly limit: number
  readonly remaining: number
  /** Whole seconds until the UTC calendar month ends and the count starts again. */
  readonly resetSeconds: number
}

/** The caller of an authenticated call, with its quota after the call. */
export interface CallContext extends Quota {
  readonly account: Account
}

/** The calls an account may make in a month before packs: its own limit, else its plan's. */
export const monthlyLimitOf = (account: Account): number => account.monthlyLimit ?? planRules[account.plan].monthlyCalls

/**
 * An account's calls in the current UTC month, as the quota counts them: used, the limit (with packs), the packs,
 * and when the month ends.
 */
export const monthUsage = Effect.fn("monthUsage")(function* (account: Account) {
  const now = yield* DateTime.now
  const usage = yield* (yield* AccountStore).usage(account.id, monthOf(now))
  return {
    used: usage.calls,
    limit: monthlyLimitOf(account) + usage.packs * packSize,
    packs: usage.packs,
    resetsAt: DateTime.add(DateTime.startOf(now, "month"), { months: 1 })
  }
})

/** The quota of a refused call: nothing remains until the reset. */
export const quotaOfRefusal = (error: QuotaExceeded): Option.Option<Quota> =>
  error.limit === undefined || error.resetSeconds === undefined
    ? Option.none()
    : Option.some({ limit: error.limit, remaining: 0, resetSeconds: error.resetSeconds })

const describeKind: Record<KeyKind, string> = { rest: "a REST key (sk_live_...)", mcp: "an MCP token (mcp_live_...)" }

/** A bearer secret's shape for one surface: 401 for a missing, malformed or wrong-kind secret. */
const checkSecret = Effect.fnUntraced(function* (secret: string | undefined, kind: KeyKind) {
  if (secret === undefined || secret.length === 0) {
    return yield* new Unauthorized({
      message: `Missing credentials: send "Authorization: Bearer <key>" with ${describeKind[kind]}.`
    })
  }
  if (!keyPattern[kind].test(secret)) {
    return yield* new Unauthorized({ message: `Wrong credential format: this endpoint takes ${describeKind[kind]}.` })
  }
  return secret
})

const unknownKey = () => new Unauthorized({ message: "Invalid or revoked key." })

/**
 * The account of a bearer secret for one surface: 401 for a missing, malformed, wrong-kind, unknown or
 * revoked secret. Counts nothing (MCP checks the token of every request this way; only tool calls count).
 */
export const authenticateCaller = Effect.fn("authenticateCaller")(function* (
  secret: string | undefined,
  kind: KeyKind
) {
  const found = yield* (yield* AccountStore).authenticate(yield* checkSecret(secret, kind), kind)
  if (Option.isNone(found)) return yield* unknownKey()
  return found.value
})

/** The monthly limits of the plans, as the store counts a call against them (an account's own limit first). */
const planLimits: Readonly<Record<Plan, number>> = {
  free: planRules.free.monthlyCalls,
  pro: planRules.pro.monthlyCalls,
  business: planRules.business.monthlyCalls
}

/**
 * Authenticates a bearer secret for one surface and, when `count` (the default), counts the call against the UTC
 * month. 401 for a missing, malformed, wrong-kind, unknown or revoked secret; 429 past the limit (not counted).
 * A counted call is one round trip to the store when it can (`authenticateAndCount`); else, and for the month's first
 * call and a refusal, the call is charged as `chargeCall` does.
 */
export const authorizeCall = (
  secret: string | undefined,
  kind: KeyKind,
  options: { readonly count: boolean } = { count: true }
) =>
  options.count
    ? authorizeCounted(secret, kind)
    : Effect.flatMap(authenticateCaller(secret, kind), (account) => chargeCall(account, options))

const authorizeCounted = Effect.fn("authorizeCall")(function* (secret: string | undefined, kind: KeyKind) {
  const checked = yield* checkSecret(secret, kind)
  const now = yield* DateTime.now
  const found = yield* (yield* AccountStore).authenticateAndCount(checked, kind, dayOf(now), planLimits)
  if (Option.isNone(found)) return yield* unknownKey()
  const { account, counted } = found.value
  if (Option.isNone(counted)) return yield* chargeCall(account)
  return contextOf(account, counted.value, secondsUntilMonthEnd(now))
})

/** The caller of a counted (or allowed) call and its quota after it. */
const contextOf = (account: Account, decision: QuotaDecision, resetSeconds: number): CallContext => ({
  account,
  limit: decision.limit,
  remaining: Math.max(0, decision.limit - decision.used),
  resetSeconds
})

/**
 * Counts a call of an authenticated account against the UTC month (when `count`, the default) and gives its quota;
 * 429 past the limit (not counted).
 */
export const chargeCall = Effect.fn("chargeCall")(function* (
  account: Account,
  options: { readonly count: boolean } = { count: true }
) {
  const accounts = yield* AccountStore
  const now = yield* DateTime.now
  const resetSeconds = secondsUntilMonthEnd(now)
  const rules = planRules[account.plan]
  const month = monthOf(now)
  const baseLimit = monthlyLimitOf(account)
  const fromUsage = Effect.map(accounts.usage(account.id, month), (usage) => {
    const limit = baseLimit + usage.packs * packSize
    return { allowed: usage.calls < limit, used: usage.calls, limit }
  })
  // While the store cannot write the counter (a full disk), calls within the limit are served uncounted: a search
  // is a read, and a bid manager should still find tenders during the operator's incident.
  const decision = !options.count
    ? { ...(yield* fromUsage), allowed: true }
    : yield* accounts
        .consumeCall(account.id, dayOf(now), baseLimit)
        .pipe(
          Effect.catchTag("QuotaCounterUnavailable", (unavailable) =>
            Effect.tap(fromUsage, () => Effect.logWarning(`call served uncounted: ${unavailable.message}`))
          )
        )
  if (!decision.allowed) {
    yield* countRefusal("quota_exceeded")
    const remedy = rules.packs
      ? `buy a $5 pack of ${packSize.toLocaleString("en")} calls (tenders accounts add-pack) or upgrade your plan`
      : "upgrade to the Pro or Business plan"
    return yield* new QuotaExceeded({
      message: `Monthly call limit of ${decision.limit} reached; ${remedy}. The quota resets when the UTC month ends.`,
      limit: decision.limit,
      resetSeconds
    })
  }
  return contextOf(account, decision, resetSeconds)
})
