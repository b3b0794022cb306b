import { DateTime, Effect, Option } from "effect"
import { type Account, type KeyKind, keyPattern } from "../Account.ts"
import { QuotaExceeded, Unauthorized } from "../Errors.ts"
import { packSize, planRules } from "../Plan.ts"
import { AccountStore } from "../ports/AccountStore.ts"

/** The caller of an authenticated call, with the quota figures for the RateLimit headers. */
export interface CallContext {
  readonly account: Account
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
}

/** `YYYY-MM` of an instant, in UTC. */
export const monthOf = (now: DateTime.Utc): string => DateTime.formatIso(now).slice(0, 7)

/** Whole seconds from `now` until the UTC calendar month ends. */
export const secondsUntilMonthEnd = (now: DateTime.Utc): number => {
  const parts = DateTime.toParts(now)
  const nextMonth = DateTime.makeUnsafe({
    year: parts.month === 12 ? parts.year + 1 : parts.year,
    month: parts.month === 12 ? 1 : parts.month + 1,
    day: 1
  })
  return Math.max(1, Math.ceil((DateTime.toEpochMillis(nextMonth) - DateTime.toEpochMillis(now)) / 1000))
}

const describeKind: Record<KeyKind, string> = { rest: "a REST key (sk_live_...)", mcp: "an MCP token (mcp_live_...)" }

/**
 * The account of a bearer secret for one surface: 401 for a missing, malformed, wrong-kind, unknown or
 * revoked secret. Counts nothing (MCP checks the token of every request this way; only tool calls count).
 */
export const authenticateCaller = Effect.fn("authenticateCaller")(function* (
  secret: string | undefined,
  kind: KeyKind
) {
  if (secret === undefined || secret.length === 0) {
    return yield* new Unauthorized({
      message: `Missing credentials: send "Authorization: Bearer <key>" with ${describeKind[kind]}.`
    })
  }
  if (!keyPattern[kind].test(secret)) {
    return yield* new Unauthorized({ message: `Wrong credential format: this endpoint takes ${describeKind[kind]}.` })
  }
  const found = yield* (yield* AccountStore).authenticate(secret, kind)
  if (Option.isNone(found)) {
    return yield* new Unauthorized({ message: "Invalid or revoked key." })
  }
  return found.value
})

/**
 * Authenticates a bearer secret for one surface and counts the call against the month.
 * 401 for a missing, malformed, wrong-kind, unknown or revoked secret; 429 past the limit (not counted).
 */
export const authorizeCall = Effect.fn("authorizeCall")(function* (
  secret: string | undefined,
  kind: KeyKind,
  options: { readonly count: boolean } = { count: true }
) {
  const account: Account = yield* authenticateCaller(secret, kind)
  const accounts = yield* AccountStore
  const now = yield* DateTime.now
  const resetSeconds = secondsUntilMonthEnd(now)
  const rules = planRules[account.plan]
  const month = monthOf(now)
  const baseLimit = account.monthlyLimit ?? rules.monthlyCalls
  const decision = options.count
    ? yield* accounts.consumeCall(account.id, month, baseLimit)
    : yield* Effect.map(accounts.usage(account.id, month), (u) => {
        const limit = baseLimit + u.packs * packSize
        return { allowed: true, used: u.calls, limit }
      })
  if (!decision.allowed) {
    const remedy = rules.packs
      ? `buy a $5 pack of ${packSize.toLocaleString("en")} calls (tenders accounts add-pack) or upgrade your plan`
      : "upgrade to the Pro or Business plan"
    return yield* new QuotaExceeded({
      message: `Monthly call limit of ${decision.limit} reached; ${remedy}. The quota resets when the UTC month ends.`
    })
  }
  return {
    account,
    limit: decision.limit,
    remaining: Math.max(0, decision.limit - decision.used),
    resetSeconds
  } satisfies CallContext
})
