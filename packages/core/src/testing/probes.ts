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
