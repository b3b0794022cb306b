import type { Alert, AlertReason, EmailDigest } from "@tenders/core"

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

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;")

const oneLine = (text: string): string => text.replaceAll(/[\r\n\t]+/gu, " ").trim()

const formatBudget = (alert: Alert): string => {
  const { budget, currency } = alert.tender
  if (budget === null) return "not stated"
  return currency === null ? budget : `${budget} ${currency}`
}

const formatDeadline = (alert: Alert): string => {
  const { deadline } = alert.tender
  if (deadline === null) return "not stated"
  const instant = new Date(deadline)
  if (Number.isNaN(instant.getTime())) return deadline
  return `${instant.toISOString().slice(0, 16).replace("T", " ")} UTC`
}

const isWebLink = (url: string): boolean => /^https?:\/\//iu.test(url)

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

const htmlItem = (alert: Alert): string => {
  const title = escapeHtml(alert.tender.title)
  const url = escapeHtml(alert.tender.url)
  const link = isWebLink(alert.tender.url) ? `<a href="${url}">${url}</a>` : url
  return [
    "<li>",
    `<p><strong>${escapeHtml(reasonLabels[alert.reason])}:</strong> ${title}</p>`,
    "<ul>",
    `<li>Buyer: ${escapeHtml(alert.tender.buyer ?? "not stated")}</li>`,
    `<li>Budget: ${escapeHtml(formatBudget(alert))}</li>`,
    `<li>Deadline: ${escapeHtml(formatDeadline(alert))}</li>`,
    `<li>Link: ${link}</li>`,
    "</ul>",
    "</li>"
  ].join("\n")
}

const htmlPart = (digest: EmailDigest, subject: string): string =>
  [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    `<p>Your watchlist &quot;${escapeHtml(digest.watchlistName)}&quot; raised ${digest.alerts.length} alert(s):</p>`,
    "<ol>",
    ...digest.alerts.map(htmlItem),
    "</ol>",
    "</body></html>",
    ""
  ].join("\n")

/** Renders a digest as subject, plain text and HTML (all tender fields HTML-escaped). */
export const renderDigest = (digest: EmailDigest): RenderedDigest => {
  const subject = digestSubject(digest)
  return { subject, text: textPart(digest), html: htmlPart(digest, subject) }
}
