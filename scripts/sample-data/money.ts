import type { Random } from "./random.ts"

/** How an estimated value is written: round, round net of VAT, or odd. */
export type BudgetStyle = "round" | "round4" | "net" | "odd"

/** Digits after the decimal point of an amount: whole units for HUF, ISK and AMD. */
export const decimals = (currency: string): number => (["HUF", "ISK", "AMD"].includes(currency) ? 0 : 2)

export const logUniform = (random: Random, lo: number, hi: number): number =>
  Math.exp(Math.log(lo) + random.next() * (Math.log(hi) - Math.log(lo)))

export const budgetStyle = (random: Random): BudgetStyle =>
  random.weighted<BudgetStyle>([
    ["round", 55],
    ["net", 30],
    ["odd", 15]
  ])

// Amounts are integers in the smallest written unit (cents, or whole units for `dp` 0).
const formatAmount = (units: number, dp: number) => {
  if (dp === 0) return String(units)
  const s = String(units).padStart(dp + 1, "0")
  return `${s.slice(0, -dp)}.${s.slice(-dp)}`
}
const round3 = (x: number) => {
  const p = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 2)
  return Math.round(x / p) * p
}
// A plausible estimated value around `major` (in currency units).
const niceAmount = (major: number, dp: number, vat: number, style: BudgetStyle) => {
  const scale = dp === 0 ? 1 : 100
  if (style === "round") return Math.round(round3(major)) * scale
  if (style === "round4") return Math.round(round3(major * 10) / 10) * scale
  if (style === "net") return Math.round((round3(major * (1 + vat)) / (1 + vat)) * scale)
  return Math.round(major * scale)
}
// Splits `major` into n lot values that sum exactly to the returned total.
const splitAmounts = (random: Random, major: number, n: number, dp: number, vat: number, style: BudgetStyle) => {
  const w = Array.from({ length: n }, () => 0.4 + random.next() * 1.6)
  const sw = w.reduce((s, x) => s + x, 0)
  const parts = w.map((x) => Math.max(niceAmount((major * x) / sw, dp, vat, style), dp === 0 ? 1000 : 100000))
  return { parts, total: parts.reduce((s, x) => s + x, 0) }
}

/** What a record's budget is drawn from. */
export interface BudgetSpec {
  readonly hasBudget: boolean
  /** The value in currency units. */
  readonly major: number
  readonly dp: number
  readonly vat: number
  readonly style: BudgetStyle
  readonly lotCount: number
  /** Whether the lots carry their own values (else they have null budgets). */
  readonly lotBudgets: boolean
}

/** The budget of a record and of each of its lots, as decimal strings. */
export const makeBudget = (
  random: Random,
  { hasBudget, major, dp, vat, style, lotCount, lotBudgets }: BudgetSpec
): { readonly budget: string | null; readonly lotValues: ReadonlyArray<string | null> } => {
  if (!hasBudget) return { budget: null, lotValues: Array<null>(lotCount).fill(null) }
  if (lotCount > 1) {
    const { parts, total } = splitAmounts(random, major, lotCount, dp, vat, style)
    return {
      budget: formatAmount(total, dp),
      lotValues: parts.map((p) => (lotBudgets ? formatAmount(p, dp) : null))
    }
  }
  const total = niceAmount(major, dp, vat, style)
  return {
    budget: formatAmount(total, dp),
    lotValues: Array<string | null>(lotCount).fill(lotBudgets ? formatAmount(total, dp) : null)
  }
}
