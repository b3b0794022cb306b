/** Webhook targets issue 9 (defect 3) names as accepted at creation when they must be refused. */
export const refusedWebhookProbes: ReadonlyArray<string> = [
  "https://[64:ff9b::7f00:1]/",
  "https://[64:ff9b::a9fe:a9fe]/",
  "https://[2002:7f00:1::]/",
  "https://[::127.0.0.1]/",
  "https://localhost./",
  "https://[fec0::1]/",
  "https://198.18.0.1/",
  "https://192.0.2.1/"
]

/**
 * Sign-in addresses issue 20 (defect 1) found accepted: one mail to several chosen recipients, a header added, a
 * bidirectional override, and the two that answered 500 (a NUL; an address too long for the store's index).
 */
export const refusedAddressProbes: ReadonlyArray<string> = [
  "\u0001,a@example.org,b@example.org,c@example.org",
  "victim@example.org\r\nbcc: attacker@example.org",
  "a@example.org,b@example.org",
  "a@example.org, b@example.org",
  "Someone <a@example.org>",
  "owner\u202e@example.org",
  "\u0000",
  `${"x".repeat(12_000)}@example.org`
]
