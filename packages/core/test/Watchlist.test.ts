import { describe, expect, it } from "vitest"
import { matchesEverything, webhookProblem } from "../src/index.ts"

describe("watchlist rules", () => {
  it("calls a filter set that narrows nothing 'matches everything'", () => {
    expect(matchesEverything({})).toBe(true)
    expect(matchesEverything({ q: "  &|  ", countries: [] })).toBe(true)
    expect(matchesEverything({ q: "ճանապարհ" })).toBe(false)
    expect(matchesEverything({ minBudget: 0 })).toBe(false)
  })

  it("accepts public HTTPS webhooks and refuses plain HTTP and literal private, loopback, link-local and metadata addresses", () => {
    expect(webhookProblem("https://hooks.example.com/tenders?x=1")).toBeUndefined()
    expect(webhookProblem("https://8.8.8.8/x")).toBeUndefined()
    expect(webhookProblem("https://[2001:db8::1]/x")).toBeUndefined()
    for (const url of [
      "http://hooks.example.com/x",
      "ftp://example.com",
      "https://user:pw@example.com/x",
      "nonsense"
    ]) {
      expect(webhookProblem(url), url).toBeDefined()
    }
    for (const url of [
      "https://127.0.0.1/",
      "https://127.8.0.1/",
      "https://10.0.0.1/",
      "https://172.16.5.4/",
      "https://192.168.1.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://localhost:8443/",
      "https://api.localhost/",
      "https://[::1]/",
      "https://[::]/",
      "https://[fe80::1]/",
      "https://[fc00::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:a9fe:a9fe]/"
    ]) {
      expect(webhookProblem(url), url).toMatch(/private, loopback/u)
    }
  })
})
