import { isoFromNow, recordLine } from "@tenders/core/testing"
import { describe, expect, it } from "vitest"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { e2eBackends, suiteServer, tenders } from "./cli.ts"

for (const name of e2eBackends) {
  describe(`tenders serve end to end on the ${name}`, () => {
    const suite = suiteServer(name, "tde-")
    let key = ""
    let keyId = ""
    const post = (path: string, body: unknown, auth = key) =>
      fetch(`${suite.base()}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })

    it("creates a key with the CLI while the server runs on the same data", () => {
      const created = tenders(
        ["keys", "create", "--email", `e2e-${Date.now()}@example.com`, "--plan", "pro", "--json"],
        suite.env()
      )
      expect(created.status, created.stderr).toBe(0)
      const parsed = JSON.parse(created.stdout) as {
        accountId: string
        keyId: string
        key: string
        kind: string
        plan: string
      }
      expect(Object.keys(parsed)).toEqual(["accountId", "keyId", "key", "kind", "plan"])
      expect(parsed.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/u)
      key = parsed.key
      keyId = parsed.keyId
    })

    it("searches the seeded sample over HTTP in three languages and fetches a full tender", async () => {
      for (const q of ["road", "дорога", "ճանապարհ"]) {
        const res = await post("/v1/tenders/search", { q })
        expect(res.status).toBe(200)
        const body = (await res.json()) as { results: Array<{ id: string }> }
        expect(body.results.length, q).toBeGreaterThan(0)
      }
      const res = await post("/v1/tenders/search", { q: "", limit: 20 })
      const { results } = (await res.json()) as { results: Array<{ id: string; source: string }> }
      expect(new Set(results.map((r) => r.source)).size).toBeGreaterThan(1)
      const full = await fetch(`${suite.base()}/v1/tenders/${results[0]?.id}`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(full.status).toBe(200)
      expect(((await full.json()) as { status: string }).status).toMatch(/^(open|amended)$/u)
    })

    it("serves the docs page, the OpenAPI document and contract errors for odd input", async () => {
      expect((await fetch(`${suite.base()}/docs`)).status).toBe(200)
      const doc = await fetch(`${suite.base()}/v1/openapi.json`, { headers: { authorization: `Bearer ${key}` } })
      expect(((await doc.json()) as { info: { version: string } }).info.version).toBe("1.2.0")
      const bad = await fetch(`${suite.base()}/v1/tenders/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: "{oops"
      })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({ error: { code: "invalid_input" } })
      const unknown = await fetch(`${suite.base()}/v2/anything`)
      expect(unknown.status).toBe(404)
      expect(await unknown.json()).toMatchObject({ error: { code: "not_found" } })
    })

    it("runs search and ingest from the CLI against the live server's store", () => {
      const search = tenders(["search", "дорога", "--json"], suite.env())
      expect(search.status, search.stderr).toBe(0)
      expect((JSON.parse(search.stdout) as { results: Array<unknown> }).results.length).toBeGreaterThan(0)
      const ingest = tenders(
        ["ingest", "--from", join(import.meta.dirname, "..", "data", "sample-tenders.jsonl"), "--json"],
        suite.env()
      )
      expect(ingest.status, ingest.stderr).toBe(0)
      expect(JSON.parse(ingest.stdout)).toMatchObject({ new: 0, rejected: 0 })
    })

    it("counts calls exactly when many arrive at once: a limit of 5 lets exactly 5 of 30 through", async () => {
      const created = tenders(
        [
          "keys",
          "create",
          "--email",
          `burst-${Date.now()}@example.com`,
          "--plan",
          "pro",
          "--monthly-limit",
          "5",
          "--json"
        ],
        suite.env()
      )
      expect(created.status, created.stderr).toBe(0)
      const burstKey = (JSON.parse(created.stdout) as { key: string }).key
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => post("/v1/tenders/search", { q: "road" }, burstKey))
      )
      const statuses = responses.map((r) => r.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(5)
      expect(statuses.filter((s) => s === 429)).toHaveLength(25)
      const refused = responses.find((r) => r.status === 429)
      expect(refused?.headers.get("retry-after")).toMatch(/^\d+$/u)
      expect(responses.find((r) => r.status === 200)?.headers.get("ratelimit-policy")).toBe(`"monthly";q=5`)
    })

    it("raises an alert for a tender ingested after a watchlist was saved, lists it on GET /v1/alerts", async () => {
      const saved = await post("/v1/watchlists", { name: "Glaciers", filters: { q: "glaciology" } })
      expect(saved.status).toBe(201)
      const { watchlistId } = (await saved.json()) as { watchlistId: string }
      const file = join(suite.dataDir, "glacier.jsonl")
      const record = recordLine({
        id: "ted-777777-2026",
        title: "Glaciology survey of the Aletsch glacier",
        buyer: "Canton du Valais",
        country: "CH",
        budget: "250000",
        currency: "CHF",
        deadline: isoFromNow(5),
        publishedAt: null,
        cpvCodes: ["71354000"]
      })
      writeFileSync(file, `${record}\n`)
      const ingested = tenders(["ingest", "--from", file], suite.env())
      expect(ingested.status, ingested.stderr).toBe(0)
      const res = await fetch(`${suite.base()}/v1/alerts`, { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as {
        alerts: Array<{ watchlistId: string; watchlistName: string; reason: string; tender: { id: string } }>
      }
      expect(body.alerts.map((a) => [a.watchlistId, a.watchlistName, a.reason, a.tender.id])).toEqual([
        [watchlistId, "Glaciers", "new", "ted-777777-2026"]
      ])
    })

    it("rejects a key revoked with the CLI", async () => {
      const revoked = tenders(["keys", "revoke", keyId], suite.env())
      expect(revoked.status, revoked.stderr).toBe(0)
      const res = await post("/v1/tenders/search", { q: "road" })
      expect(res.status).toBe(401)
    })
  })
}
