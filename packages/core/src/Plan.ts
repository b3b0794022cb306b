import { Schema } from "effect"

/** Account plans (DESIGN §4). */
export const Plan = Schema.Literals(["free", "pro", "business"])
export type Plan = typeof Plan.Type

/** What each plan allows. */
export interface PlanRules {
  readonly monthlyCalls: number
  readonly watchlists: number
  readonly structuredFilters: boolean
  readonly webhooks: boolean
  readonly fullTenderExtras: boolean
  readonly packs: boolean
}

/** The plans table of DESIGN §4. */
export const planRules: Record<Plan, PlanRules> = {
  free: {
    monthlyCalls: 1_000,
    watchlists: 3,
    structuredFilters: false,
    webhooks: false,
    fullTenderExtras: false,
    packs: false
  },
  pro: {
    monthlyCalls: 50_000,
    watchlists: 50,
    structuredFilters: true,
    webhooks: true,
    fullTenderExtras: true,
    packs: true
  },
  business: {
    monthlyCalls: 500_000,
    watchlists: 500,
    structuredFilters: true,
    webhooks: true,
    fullTenderExtras: true,
    packs: true
  }
}

/** Calls one $5 pack adds for the rest of the month. */
export const packSize = 10_000
