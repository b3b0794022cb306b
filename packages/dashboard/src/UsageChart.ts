import { html, type UsageDay } from "@tenders/core"
import { formatDayOfMonth, formatMonth, formatNumber, instantOf } from "./Format.ts"
import type { PageContext } from "./PageContext.ts"

// The drawing's own units (the SVG scales to the page's width): a slot per day, room on the left for the scale and
// on the right for the last day's number.
const slot = 12
const left = 34
const right = 10
const top = 10
const plot = 110
const axis = top + plot

const dayNumber = (day: string) => Number(day.slice(8))

/**
 * This month's calls per day: an inline SVG bar chart (an image named by its heading and summary; each bar has its
 * own title), and the same numbers as a table under a disclosure, for screen readers and for reading exact values.
 */
export const usageChart = (
  ctx: PageContext,
  usage: { readonly month: string; readonly today: string; readonly days: ReadonlyArray<UsageDay> }
) => {
  const { language } = ctx
  const t = ctx.t.overview
  const dayName = (day: string) => formatDayOfMonth(language, instantOf(day))
  const past = usage.days.filter((d) => !d.future)
  const total = past.reduce((sum, d) => sum + d.calls, 0)
  const busiest = past.reduce<UsageDay | undefined>(
    (best, d) => (best === undefined || d.calls > best.calls ? d : best),
    undefined
  )
  const peak = Math.max(1, busiest?.calls ?? 0)
  const width = left + usage.days.length * slot
  const labelled = (d: UsageDay) => [1, 5, 10, 15, 20, 25, 30].includes(dayNumber(d.day))
  const summary = t.chartSummary(
    total,
    formatNumber(language, total),
    busiest === undefined || busiest.calls === 0
      ? undefined
      : `${dayName(busiest.day)} (${formatNumber(language, busiest.calls)})`
  )
  return html`<section aria-labelledby="usage-chart-title" data-testid="usage-chart">
    <h2 id="usage-chart-title">${t.chartTitle(formatMonth(language, instantOf(`${usage.month}-01`)))}</h2>
    <p id="usage-chart-summary">${summary}</p>
    <svg
      class="chart"
      viewBox="0 0 ${width + right} 142"
      role="img"
      aria-labelledby="usage-chart-title usage-chart-summary"
      focusable="false"
    >
      <line class="rule" x1="${left}" y1="${top}" x2="${width}" y2="${top}" />
      <line class="axis" x1="${left}" y1="${axis}" x2="${width}" y2="${axis}" />
      <text class="scale" x="${left - 4}" y="${top + 5}" text-anchor="end">${formatNumber(language, peak)}</text>
      <text class="scale" x="${left - 4}" y="${axis + 4}" text-anchor="end">0</text>
      ${usage.days.map((d, i) => {
        const height = d.calls === 0 ? 0 : Math.max(2, Math.round((d.calls / peak) * plot))
        const x = left + i * slot
        return html`${
          height > 0
            ? html`<rect
                class="${d.day === usage.today ? "day today" : "day"}"
                x="${x + 2}"
                y="${axis - height}"
                width="${slot - 4}"
                height="${height}"
                ><title>${t.dayCalls(dayName(d.day), formatNumber(language, d.calls))}</title></rect
              >`
            : ""
        }${
          labelled(d)
            ? html`<text class="scale" x="${x + slot / 2}" y="${axis + 18}" text-anchor="middle"
                >${formatNumber(language, dayNumber(d.day))}</text
              >`
            : ""
        }`
      })}
    </svg>
    <p class="muted">${t.chartNote}</p>
    <details>
      <summary>${t.showTable}</summary>
      <table data-testid="usage-days">
        <thead>
          <tr>
            <th scope="col">${t.day}</th>
            <th scope="col">${t.dayCount}</th>
          </tr>
        </thead>
        <tbody>
          ${past.map(
            (d) =>
              html`<tr data-testid="usage-day" data-day="${d.day}" data-calls="${d.calls}">
                <th scope="row">${dayName(d.day)}</th>
                <td>${formatNumber(language, d.calls)}</td>
              </tr>`
          )}
        </tbody>
      </table>
    </details>
  </section>`
}
