import { DateTime, Effect } from "effect"
import type { Account } from "../Account.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { dayOf, monthOf } from "../Time.ts"

/** One day of a month of usage: its calls (0 when none), and whether it is still to come. */
export interface UsageDay {
  readonly day: string
  readonly calls: number
  readonly future: boolean
}

/** Every day of the current UTC month with the account's calls counted that day (what the quota counted). */
export const monthDailyUsage = Effect.fn("monthDailyUsage")(function* (account: Account) {
  const now = yield* DateTime.now
  const month = monthOf(now)
  const today = dayOf(now)
  const counted = yield* (yield* AccountStore).dailyUsage(account.id, month)
  const calls = new Map(counted.map((d) => [d.day, d.calls]))
  const lastDay = DateTime.subtract(DateTime.add(DateTime.startOf(now, "month"), { months: 1 }), { days: 1 })
  const length = Number(dayOf(lastDay).slice(8))
  const days = Array.from({ length }, (_, i): UsageDay => {
    const day = `${month}-${String(i + 1).padStart(2, "0")}`
    return { day, calls: calls.get(day) ?? 0, future: day > today }
  })
  return { month, today, days }
})
