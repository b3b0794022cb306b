import type { Alert, EmailDigest, SignInMessage } from "@tenders/core"

export { decodeQuotedPrintable, partOf, subjectOf } from "../src/testing.ts"

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

/** A sign-in link whose URL needs escaping in HTML. */
export const signIn: SignInMessage = {
  to: "buyer@example.test",
  url: "https://tenders.test/sign-in?token=Zm9v_YmFy-baz&lang=hy",
  minutes: 15,
  language: "en"
}
