// The store commands in this process, on each store: what they print, and how they refuse what the store must judge.
import { recordLine } from "@tenders/core/testing"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { zip } from "../../adapters-sources/test/fixtures/eaeu/feed/zipWriter.ts"
import { backendEnv, e2eBackends, tenders as spawnTenders } from "./cli.ts"
import { expectOneLineFailure, runCli, storeArgs } from "./inProcess.ts"

const record = (id: string, title: string) =>
  recordLine({
    id,
    title,
    buyer: "Gemeente Utrecht",
    country: "NL",
    budget: "120000.50",
    deadline: "2099-01-15T10:00:00Z",
    cpvCodes: ["90911200"]
  })

for (const backend of e2eBackends) {
  describe(`tenders commands in process on the ${backend}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tdc-"))
    let env: NodeJS.ProcessEnv = {}
    let drop = async (): Promise<unknown> => undefined
    beforeAll(async () => {
      ;({ env, drop } = await backendEnv(backend, dataDir))
    })
    afterAll(async () => {
      await drop()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const tenders = (args: ReadonlyArray<string>) => runCli([...storeArgs(env), ...args])

    it("refuses input a command checks once its store is open: one line on stderr, no stdout, exit 1", async () => {
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [["keys", "create", "--email", "new@example.com"], "new@example.com has no account yet"],
        [["keys", "create", "--email", "not-an-address", "--plan", "pro"], '"not-an-address" is not an e-mail address'],
        [
          ["accounts", "set", "--email", "x@example.com", "--monthly-limit", "lots"],
          '--monthly-limit must be a whole number or "none", got "lots"'
        ],
        [["search", "road", "--limit", "50"], "between 1 and 20"],
        [["search", "road", "--min-budget", "lots"], '--min-budget must be a number, got "lots"'],
        [["keys", "revoke", "missing"], 'no key with id "missing"'],
        [["ingest", "--from", join(dataDir, "nonexistent.jsonl")], "cannot read"],
        [["ingest", "--source", "ted", "--from", join(dataDir, "nothing-here")], "cannot read"],
        [["accounts", "add-pack", "--email", "nobody@example.com"], "no account for nobody@example.com"],
        [["deliveries", "retry", "999999"], "no failed delivery with id 999999"]
      ]
      for (const [args, message] of cases) {
        const result = await tenders(args)
        expectOneLineFailure(args, result, message)
      }
    })

    it("ingests normalised JSON lines, rejects a bad line with its number, changes nothing on a re-run", async () => {
      const file = join(dataDir, "in.jsonl")
      writeFileSync(
        file,
        [
          record("ted-900001-2026", "Street cleaning services"),
          "{not json",
          record("ted-900002-2026", "Snow clearing"),
          ""
        ].join("\n")
      )
      const first = await tenders(["ingest", "--from", file, "--json"])
      expect(first.status, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toEqual({ new: 2, updated: 0, unchanged: 0, rejected: 1 })
      expect(first.stderr).toContain("line 2")
      const again = await tenders(["ingest", "--from", file, "--json"])
      expect(JSON.parse(again.stdout)).toEqual({ new: 0, updated: 0, unchanged: 2, rejected: 1 })
    })

    it("ingests each source's own format, links a cancellation to its original, a re-run changes nothing", async () => {
      const fixtures = join(import.meta.dirname, "..", "..", "adapters-sources", "test", "fixtures")
      const ted = join(fixtures, "ted", "RECONSTRUCTED-search-response-original-change-cancel.json")
      const first = await tenders(["ingest", "--source", "ted", "--from", ted, "--json"])
      expect(first.status, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toMatchObject({ files: 1, new: 1, amended: 1, cancelled: 1, rejected: 0 })
      expect(JSON.parse((await tenders(["ingest", "--source", "ted", "--from", ted, "--json"])).stdout)).toMatchObject({
        new: 0,
        amended: 0,
        cancelled: 0,
        unchanged: 3
      })
      for (const source of ["eaeu", "gnumner"]) {
        const run = await tenders(["ingest", "--source", source, "--from", join(fixtures, source), "--json"])
        expect(run.status, run.stderr).toBe(0)
        expect((JSON.parse(run.stdout) as { new: number }).new, source).toBeGreaterThan(0)
        expect(
          JSON.parse((await tenders(["ingest", "--source", source, "--from", join(fixtures, source), "--json"])).stdout)
        ).toMatchObject({ new: 0, amended: 0, cancelled: 0, closed: 0, updated: 0 })
      }
      const eisDir = join(fixtures, "eaeu")
      const archive = join(dataDir, "eis-archive.zip")
      writeFileSync(
        archive,
        zip([
          {
            name: "notice.xml",
            text: readFileSync(
              join(eisDir, "RECONSTRUCTED_epNotificationEF2020_0101500000623000049_v2_amended.xml"),
              "utf8"
            )
          },
          {
            name: "cancel.xml",
            text: readFileSync(join(eisDir, "RECONSTRUCTED_epNotificationCancel_0101500000623000049.xml"), "utf8"),
            stored: true
          },
          { name: "readme.txt", text: "not XML" }
        ])
      )
      const zipped = await tenders(["ingest", "--source", "eaeu", "--from", archive, "--json"])
      expect(zipped.status, zipped.stderr).toBe(0)
      expect(JSON.parse(zipped.stdout)).toMatchObject({ files: 1, new: 0, rejected: 0, unchanged: 2 })
      const cancelled = await tenders(["search", "Luxembourg", "--json"])
      expect(
        (JSON.parse(cancelled.stdout) as { results: Array<{ id: string }> }).results.map((r) => r.id)
      ).not.toContain("ted-12345-2019")
    })

    it("searches the local store as a table or as the API's JSON", async () => {
      const table = await tenders(["search", "cleaning"])
      expect(table.status, table.stderr).toBe(0)
      expect(table.stdout).toContain("ted-900001-2026")
      expect(table.stdout).toContain("120000.50 EUR")
      const json = await tenders([
        "search",
        "",
        "--country",
        "nl",
        "--cpv",
        "90911200-8",
        "--currency",
        "eur",
        "--max-budget",
        "200000",
        "--json"
      ])
      expect(json.status, json.stderr).toBe(0)
      const body = JSON.parse(json.stdout) as { results: Array<{ id: string }>; hint?: string }
      expect(body.results.map((r) => r.id)).toEqual(["ted-900001-2026", "ted-900002-2026"])
      expect(body.hint).toContain("converted to EUR")
    })

    // Spawned: a process reads its environment once (Effect's default ConfigProvider), so the file cannot change here.
    it("uses an operator's rate table from TENDERS_RATES_FILE and refuses a malformed one", () => {
      const bundled = JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "..", "core", "src", "data", "reference-rates.json"), "utf8")
      ) as { quarter: string }
      const good = join(dataDir, "rates.json")
      writeFileSync(good, JSON.stringify({ ...bundled, quarter: "2027-Q1" }))
      const converted = spawnTenders(["search", "", "--currency", "EUR", "--min-budget", "1", "--json"], {
        ...env,
        TENDERS_RATES_FILE: good
      })
      expect(converted.status, converted.stderr).toBe(0)
      expect((JSON.parse(converted.stdout) as { hint?: string }).hint).toContain("reference rates of 2027-Q1")
      const bad = join(dataDir, "bad-rates.json")
      writeFileSync(bad, JSON.stringify({ ...bundled, quarter: "soon" }))
      const refused = spawnTenders(["search", "road"], { ...env, TENDERS_RATES_FILE: bad })
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain("TENDERS_RATES_FILE")
      expect(refused.stderr.trim().split("\n")).toHaveLength(1)
    })

    it("creates, lists and deletes watchlists with the API's rules", async () => {
      expect((await tenders(["accounts", "set", "--email", "wl@example.com", "--plan", "free"])).status).toBe(0)
      const created = await tenders([
        "watchlists",
        "create",
        "--email",
        "wl@example.com",
        "--name",
        "Cleaning",
        "--q",
        "cleaning",
        "--no-email-alerts",
        "--json"
      ])
      expect(created.status, created.stderr).toBe(0)
      const { watchlistId, estimatedMatches } = JSON.parse(created.stdout) as {
        watchlistId: string
        estimatedMatches: number
      }
      expect(estimatedMatches).toBeGreaterThan(0)
      const refused = await tenders([
        "watchlists",
        "create",
        "--email",
        "wl@example.com",
        "--name",
        "NL",
        "--q",
        "cleaning",
        "--country",
        "NL"
      ])
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain("Pro or Business")
      expect(
        (await tenders(["watchlists", "create", "--email", "wl@example.com", "--name", "Everything"])).stderr
      ).toContain("match every tender")
      const listed = JSON.parse(
        (await tenders(["watchlists", "list", "--email", "wl@example.com", "--json"])).stdout
      ) as Array<{ id: string; channels: { email: boolean } }>
      expect(listed.map((w) => [w.id, w.channels.email])).toEqual([[watchlistId, false]])
      expect((await tenders(["watchlists", "delete", watchlistId, "--email", "wl@example.com"])).status).toBe(0)
      expect((await tenders(["watchlists", "delete", watchlistId, "--email", "wl@example.com"])).status).toBe(1)
      expect((await tenders(["watchlists", "list", "--email", "wl@example.com"])).stdout).toContain("No watchlists.")
    })

    it("shows alerts, the delivery outbox and the webhook secret", async () => {
      expect((await tenders(["accounts", "set", "--email", "bids@example.com", "--plan", "pro"])).status).toBe(0)
      const created = await tenders([
        "watchlists",
        "create",
        "--email",
        "bids@example.com",
        "--name",
        "Gritting",
        "--q",
        "gritting",
        "--json"
      ])
      expect(created.status, created.stderr).toBe(0)
      const file = join(dataDir, "gritting.jsonl")
      writeFileSync(file, `${record("ted-900777-2026", "Winter gritting of cycle paths")}\n`)
      expect((await tenders(["ingest", "--from", file])).status).toBe(0)
      const alerts = JSON.parse((await tenders(["alerts", "--email", "bids@example.com", "--json"])).stdout) as {
        alerts: Array<{ reason: string; tender: { id: string } }>
      }
      expect(alerts.alerts.map((a) => [a.reason, a.tender.id])).toEqual([["new", "ted-900777-2026"]])
      expect((await tenders(["alerts", "--email", "bids@example.com"])).stdout).toContain("Winter gritting")
      const outbox = JSON.parse((await tenders(["deliveries", "--json"])).stdout) as Array<{
        id: number
        channel: string
        target: string
        status: string
      }>
      expect(outbox.some((d) => d.channel === "email" && d.target === "bids@example.com")).toBe(true)
      const secret = (await tenders(["webhooks", "secret", "--email", "bids@example.com"])).stdout.trim()
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/u)
      expect((await tenders(["webhooks", "secret", "--email", "bids@example.com"])).stdout.trim()).toBe(secret)
      expect((await tenders(["webhooks", "secret", "--email", "bids@example.com", "--rotate"])).stdout.trim()).not.toBe(
        secret
      )
    })

    it("manages keys and accounts: create, list, plan change, pack, revoke", async () => {
      const created = await tenders([
        "keys",
        "create",
        "--email",
        "ops@example.com",
        "--plan",
        "free",
        "--kind",
        "mcp",
        "--json"
      ])
      expect(created.status, created.stderr).toBe(0)
      const key = JSON.parse(created.stdout) as { key: string; keyId: string; kind: string; plan: string }
      expect(key.key).toMatch(/^mcp_live_[0-9A-Za-z]{32}$/u)
      expect([key.kind, key.plan]).toEqual(["mcp", "free"])
      const refused = await tenders(["accounts", "add-pack", "--email", "ops@example.com"])
      expect(refused.status).toBe(1)
      expect(
        (await tenders(["accounts", "set", "--email", "ops@example.com", "--plan", "pro", "--monthly-limit", "10"]))
          .stdout
      ).toContain("plan pro, 10 calls a month (override)")
      expect((await tenders(["accounts", "add-pack", "--email", "ops@example.com"])).stdout).toContain("1 pack(s)")
      const listed = JSON.parse((await tenders(["keys", "list", "--json"])).stdout) as Array<Record<string, unknown>>
      const mine = listed.find((k) => k.keyId === key.keyId)
      expect(Object.keys(mine ?? {})).toEqual([
        "keyId",
        "accountId",
        "email",
        "plan",
        "kind",
        "prefix",
        "createdAt",
        "revokedAt",
        "lastUsedAt"
      ])
      expect(mine?.plan).toBe("pro")
      expect(JSON.stringify(listed)).not.toContain(key.key)
      expect((await tenders(["keys", "revoke", key.keyId])).status).toBe(0)
      const after = JSON.parse((await tenders(["keys", "list", "--json"])).stdout) as Array<{
        keyId: string
        revokedAt: string | null
      }>
      expect(after.find((k) => k.keyId === key.keyId)?.revokedAt).toMatch(/Z$/u)
    })
  })
}
