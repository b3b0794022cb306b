import { type Alert, type AlertReason, type EmailDigest, html, linkedUrl, utcStamp } from "@tenders/core"
import { DateTime, Option } from "effect"

/** The rendered parts of one digest e-mail. */
export interface RenderedDigest {
  readonly subject: string
  readonly text: string
  readonly html: string
}

const reasonLabels: Record<AlertReason, string> = {
  new: "New tender",
  "deadline-24h": "Deadline within 24 hours",
  amended: "Tender amended"
}

const oneLine = (text: string): string => text.replaceAll(/[\r\n\t]+/gu, " ").trim()

const formatBudget = (alert: Alert): string => {
  const { budget, currency } = alert.tender
  if (budget === null) return "not stated"
  return currency === null ? budget : `${budget} ${currency}`
}

// An instant reads the same for every recipient: UTC to the minute; a text that is no instant is shown as it is.
const formatDeadline = (alert: Alert): string => {
  const { deadline } = alert.tender
  if (deadline === null) return "not stated"
  return Option.match(DateTime.make(deadline), { onNone: () => deadline, onSome: (at) => utcStamp(DateTime.toUtc(at)) })
}

/** The subject line: names the watchlist and the number of alerts. */
export const digestSubject = (digest: EmailDigest): string => {
  const count = digest.alerts.length
  return `Tenders: ${count} new ${count === 1 ? "alert" : "alerts"} for "${oneLine(digest.watchlistName)}"`
}

const textPart = (digest: EmailDigest): string => {
  const blocks = digest.alerts.map((alert, index) =>
    [
      `${index + 1}. [${reasonLabels[alert.reason]}] ${oneLine(alert.tender.title)}`,
      `   Buyer:    ${oneLine(alert.tender.buyer ?? "not stated")}`,
      `   Budget:   ${formatBudget(alert)}`,
      `   Deadline: ${formatDeadline(alert)}`,
      `   Link:     ${alert.tender.url}`
    ].join("\n")
  )
  return [
    `Your watchlist "${oneLine(digest.watchlistName)}" raised ${digest.alerts.length} alert(s):`,
    "",
    blocks.join("\n\n"),
    ""
  ].join("\n")
}

// The markup is written as it is sent, one element a line (prettier would reflow it): each alert ends its line.
// prettier-ignore
const htmlItem = (alert: Alert) => html`<li>
<p><strong>${reasonLabels[alert.reason]}:</strong> ${alert.tender.title}</p>
<ul>
<li>Buyer: ${alert.tender.buyer ?? "not stated"}</li>
<li>Budget: ${formatBudget(alert)}</li>
<li>Deadline: ${formatDeadline(alert)}</li>
<li>Link: ${linkedUrl(alert.tender.url)}</li>
</ul>
</li>
`

// prettier-ignore
const htmlPart = (digest: EmailDigest, subject: string) => html`<!doctype html>
<html><head><meta charset="utf-8"><title>${subject}</title></head><body>
<p>Your watchlist &quot;${digest.watchlistName}&quot; raised ${digest.alerts.length} alert(s):</p>
<ol>
${digest.alerts.map(htmlItem)}</ol>
</body></html>
`

/** Renders a digest as subject, plain text and HTML (every tender field escaped by the `html` tag). */
export const renderDigest = (digest: EmailDigest): RenderedDigest => {
  const subject = digestSubject(digest)
  return { subject, text: textPart(digest), html: htmlPart(digest, subject).markup }
}
