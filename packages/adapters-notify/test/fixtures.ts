import type { Alert, EmailDigest } from "@tenders/core"

/** An alert with a tender card; `title` may carry markup to test escaping. */
export const makeAlert = (overrides: { readonly title?: string; readonly reason?: Alert["reason"] } = {}): Alert => ({
  watchlistId: "0b6e2a57-9a0e-4c41-9c1e-6d1f1d3b2a10",
  watchlistName: "Roads in Estonia",
  reason: overrides.reason ?? "new",
  createdAt: "2026-03-01T08:00:00Z",
  tender: {
    id: "ted-123456-2026",
    title: overrides.title ?? "Resurfacing of the Tallinn–Tartu road",
    buyer: "Transport Administration",
    country: "EE",
    budget: "1250000.50",
    currency: "EUR",
    deadline: "2026-04-15T10:00:00Z",
    url: "https://ted.europa.eu/en/notice/-/detail/123456-2026",
    source: "ted"
  }
})

/** A digest of two alerts, one with a `<script>` title. */
export const digest: EmailDigest = {
  to: "buyer@example.test",
  watchlistName: "Roads in Estonia",
  alerts: [makeAlert(), makeAlert({ title: `Bridge <script>alert("x")</script> & tunnels`, reason: "deadline-24h" })]
}

/** Decodes the quoted-printable soft breaks and escapes of a raw message, good enough for assertions. */
export const decodeQuotedPrintable = (raw: string): string =>
  Buffer.from(
    raw
      .replaceAll(/=\r?\n/gu, "")
      .replaceAll(/=([0-9A-F]{2})/gu, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1"
  ).toString("utf8")

/** The decoded `Subject:` header of a raw message (unfolds lines, decodes RFC 2047 Q/B words). */
export const subjectOf = (raw: string): string => {
  const match = /^Subject: (.*(?:\r?\n[ \t].*)*)/imu.exec(raw)
  if (match === null) return ""
  const unfolded = (match[1] ?? "").replaceAll(/\?=\r?\n[ \t]+=\?/gu, "?==?").replaceAll(/\r?\n[ \t]+/gu, " ")
  return unfolded.replaceAll(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/gu,
    (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " "))
  )
}
