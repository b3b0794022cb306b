import { html } from "@tenders/core"
import type { DateTime } from "effect"
import { formatDate, formatNumber } from "./Format.ts"
import { page } from "./Layout.ts"
import type { SignedInContext } from "./PageContext.ts"
import { usageChart } from "./UsageChart.ts"

/** The overview: plan, this month's calls and packs, and a chart of the calls per day. */
export const overviewPage = (
  ctx: SignedInContext,
  usage: { readonly used: number; readonly limit: number; readonly packs: number; readonly resetsAt: DateTime.Utc },
  daily: Parameters<typeof usageChart>[1]
) => {
  const t = ctx.t
  const plan = ctx.session.account.plan
  const n = (value: number) => formatNumber(ctx.language, value)
  return page(
    ctx,
    t.overview.title,
    html`<dl class="facts" data-testid="usage">
        <dt>${t.overview.plan}</dt>
        <dd data-testid="plan" data-plan="${plan}">${t.plans[plan]}</dd>
        <dt>${t.overview.calls}</dt>
        <dd data-testid="calls-used" data-used="${usage.used}">${t.overview.used(n(usage.used), n(usage.limit))}</dd>
        <dt>${t.overview.packs}</dt>
        <dd>${n(usage.packs)}</dd>
        <dt>${t.overview.resets}</dt>
        <dd>${t.overview.resetsAt(formatDate(ctx.language, usage.resetsAt))}</dd>
      </dl>
      ${usageChart(ctx, daily)}`
  )
}
