import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { zip } from "../../adapters-sources/test/fixtures/eaeu/feed/zipWriter.ts"
import { childEnv, tenders } from "./cli.ts"

const dataDir = mkdtempSync(join(tmpdir(), "tdc-"))
const env = childEnv({ TENDERS_DATA_DIR: dataDir })
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const record = (id: string, title: string) =>
  JSON.stringify({
    id,
    source: "ted",
    nativeId: id.slice(4),
    title,
    buyer: "Gemeente Utrecht",
    country: "NL",
    region: null,
    budget: "120000.50",
    currency: "EUR",
    deadline: "2099-01-15T10:00:00Z",
    publishedAt: "2026-11-01T00:00:00Z",
    status: "open",
    url: `https://ted.europa.eu/en/notice/-/detail/${id.slice(4)}`,
    cpvCodes: ["90911200"],
    okpd2Codes: [],
    lots: [],
    docsUrl: []
  })

describe("tenders CLI", () => {
  it("prints help for every command", () => {
    for (const args of [
      [],
      ["serve"],
      ["ingest"],
      ["search"],
      ["sources"],
      ["watchlists", "create"],
      ["keys"],
      ["keys", "create"],
      ["keys", "list"],
      ["keys", "revoke"],
      ["accounts", "set"],
      ["accounts", "add-pack"]
    ]) {
      const result = tenders([...args, "--help"], env)
      expect(result.status, args.join(" ")).toBe(0)
      expect(result.stdout).toContain("Usage: tenders")
    }
    expect(tenders(["serve", "--help"], env).stdout).toContain("env: TENDERS_PORT")
  })

  it("answers bad arguments with one line on stderr and a non-zero exit", () => {
    for (const args of [
      ["nope"],
      ["keys", "create"],
      ["keys", "create", "--email", "x@example.com", "--plan", "gold"],
      ["keys", "create", "--email", "new@example.com"],
      ["search", "road", "--limit", "50"],
      ["search", "road", "--min-budget", "lots"],
      ["keys", "revoke", "missing"],
      ["ingest", "--from", "/nonexistent.jsonl"],
      ["accounts", "add-pack", "--email", "nobody@example.com"]
    ]) {
      const result = tenders(args, env)
      expect(result.status, args.join(" ")).not.toBe(0)
      expect(result.stderr.trim().split("\n"), `${args.join(" ")}: ${result.stderr}`).toHaveLength(1)
    }
  })

  it("ingests normalised JSON lines, rejects a bad line with its number, and changes nothing on a re-run", () => {
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
    const first = tenders(["ingest", "--from", file, "--json"], env)
    expect(first.status, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toEqual({ new: 2, updated: 0, unchanged: 0, rejected: 1 })
    expect(first.stderr).toContain("line 2")
    const again = tenders(["ingest", "--from", file, "--json"], env)
    expect(JSON.parse(again.stdout)).toEqual({ new: 0, updated: 0, unchanged: 2, rejected: 1 })
  })

  it("ingests recorded payloads in each source's own format, links a cancellation to its original, and changes nothing on a re-run", () => {
    const fixtures = join(import.meta.dirname, "..", "..", "adapters-sources", "test", "fixtures")
    const sourceDir = join(dataDir, "sources")
    const ted = join(fixtures, "ted", "RECONSTRUCTED-search-response-original-change-cancel.json")
    const first = tenders(["ingest", "--source", "ted", "--from", ted, "--json"], env)
    expect(first.status, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ files: 1, new: 1, amended: 1, cancelled: 1, rejected: 0 })
    expect(JSON.parse(tenders(["ingest", "--source", "ted", "--from", ted, "--json"], env).stdout)).toMatchObject({
      new: 0,
      amended: 0,
      cancelled: 0,
      unchanged: 3
    })
    for (const source of ["eaeu", "gnumner"]) {
      const run = tenders(["ingest", "--source", source, "--from", join(fixtures, source), "--json"], env)
      expect(run.status, run.stderr).toBe(0)
      expect((JSON.parse(run.stdout) as { new: number }).new, source).toBeGreaterThan(0)
      expect(
        JSON.parse(tenders(["ingest", "--source", source, "--from", join(fixtures, source), "--json"], env).stdout)
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
    const zipped = tenders(["ingest", "--source", "eaeu", "--from", archive, "--json"], env)
    expect(zipped.status, zipped.stderr).toBe(0)
    expect(JSON.parse(zipped.stdout)).toMatchObject({ files: 1, new: 0, rejected: 0, unchanged: 2 })
    const cancelled = tenders(["search", "Luxembourg", "--json"], env)
    expect((JSON.parse(cancelled.stdout) as { results: Array<{ id: string }> }).results.map((r) => r.id)).not.toContain(
      "ted-12345-2019"
    )
    const missing = tenders(["ingest", "--source", "ted", "--from", join(sourceDir, "nothing-here")], env)
    expect(missing.status).not.toBe(0)
  })

  it("searches the local store as a table or as the API's JSON", () => {
    const table = tenders(["search", "cleaning"], env)
    expect(table.status, table.stderr).toBe(0)
    expect(table.stdout).toContain("ted-900001-2026")
    expect(table.stdout).toContain("120000.50 EUR")
    const json = tenders(
      ["search", "", "--country", "nl", "--cpv", "90911200-8", "--currency", "eur", "--max-budget", "200000", "--json"],
      env
    )
    expect(json.status, json.stderr).toBe(0)
    const body = JSON.parse(json.stdout) as { results: Array<{ id: string }>; hint?: string }
    expect(body.results.map((r) => r.id)).toEqual(["ted-900001-2026", "ted-900002-2026"])
    expect(body.hint).toContain("converted to EUR")
  })

  it("uses an operator's rate table from TENDERS_RATES_FILE and refuses a malformed one", () => {
    const bundled = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "core", "src", "data", "reference-rates.json"), "utf8")
    ) as { quarter: string }
    const good = join(dataDir, "rates.json")
    writeFileSync(good, JSON.stringify({ ...bundled, quarter: "2027-Q1" }))
    const converted = tenders(
      ["search", "", "--currency", "EUR", "--min-budget", "1", "--json"],
      childEnv({ TENDERS_DATA_DIR: dataDir, TENDERS_RATES_FILE: good })
    )
    expect(converted.status, converted.stderr).toBe(0)
    expect((JSON.parse(converted.stdout) as { hint?: string }).hint).toContain("reference rates of 2027-Q1")
    const bad = join(dataDir, "bad-rates.json")
    writeFileSync(bad, JSON.stringify({ ...bundled, quarter: "soon" }))
    const refused = tenders(["search", "road"], childEnv({ TENDERS_DATA_DIR: dataDir, TENDERS_RATES_FILE: bad }))
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain("TENDERS_RATES_FILE")
    expect(refused.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("creates, lists and deletes watchlists with the API's rules", () => {
    expect(tenders(["accounts", "set", "--email", "wl@example.com", "--plan", "free"], env).status).toBe(0)
    const created = tenders(
      [
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
      ],
      env
    )
    expect(created.status, created.stderr).toBe(0)
    const { watchlistId, estimatedMatches } = JSON.parse(created.stdout) as {
      watchlistId: string
      estimatedMatches: number
    }
    expect(estimatedMatches).toBeGreaterThan(0)
    const refused = tenders(
      ["watchlists", "create", "--email", "wl@example.com", "--name", "NL", "--q", "cleaning", "--country", "NL"],
      env
    )
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain("Pro or Business")
    expect(
      tenders(["watchlists", "create", "--email", "wl@example.com", "--name", "Everything"], env).stderr
    ).toContain("match every tender")
    const listed = JSON.parse(
      tenders(["watchlists", "list", "--email", "wl@example.com", "--json"], env).stdout
    ) as Array<{ id: string; channels: { email: boolean } }>
    expect(listed.map((w) => [w.id, w.channels.email])).toEqual([[watchlistId, false]])
    expect(tenders(["watchlists", "delete", watchlistId, "--email", "wl@example.com"], env).status).toBe(0)
    expect(tenders(["watchlists", "delete", watchlistId, "--email", "wl@example.com"], env).status).not.toBe(0)
    expect(tenders(["watchlists", "list", "--email", "wl@example.com"], env).stdout).toContain("No watchlists.")
  })

  it("shows alerts, the delivery outbox and the webhook secret", () => {
    expect(tenders(["accounts", "set", "--email", "bids@example.com", "--plan", "pro"], env).status).toBe(0)
    const created = tenders(
      ["watchlists", "create", "--email", "bids@example.com", "--name", "Gritting", "--q", "gritting", "--json"],
      env
    )
    expect(created.status, created.stderr).toBe(0)
    const file = join(dataDir, "gritting.jsonl")
    writeFileSync(file, `${record("ted-900777-2026", "Winter gritting of cycle paths")}\n`)
    expect(tenders(["ingest", "--from", file], env).status).toBe(0)
    const alerts = JSON.parse(tenders(["alerts", "--email", "bids@example.com", "--json"], env).stdout) as {
      alerts: Array<{ reason: string; tender: { id: string } }>
    }
    expect(alerts.alerts.map((a) => [a.reason, a.tender.id])).toEqual([["new", "ted-900777-2026"]])
    expect(tenders(["alerts", "--email", "bids@example.com"], env).stdout).toContain("Winter gritting")
    const outbox = JSON.parse(tenders(["deliveries", "--json"], env).stdout) as Array<{
      id: number
      channel: string
      target: string
      status: string
    }>
    expect(outbox.some((d) => d.channel === "email" && d.target === "bids@example.com")).toBe(true)
    expect(tenders(["deliveries", "retry", "999999"], env).status).not.toBe(0)
    const secret = tenders(["webhooks", "secret", "--email", "bids@example.com"], env).stdout.trim()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/u)
    expect(tenders(["webhooks", "secret", "--email", "bids@example.com"], env).stdout.trim()).toBe(secret)
    expect(tenders(["webhooks", "secret", "--email", "bids@example.com", "--rotate"], env).stdout.trim()).not.toBe(
      secret
    )
  })

  it("manages keys and accounts: create, list, plan change, pack, revoke", () => {
    const created = tenders(
      ["keys", "create", "--email", "ops@example.com", "--plan", "free", "--kind", "mcp", "--json"],
      env
    )
    expect(created.status, created.stderr).toBe(0)
    const key = JSON.parse(created.stdout) as { key: string; keyId: string; kind: string; plan: string }
    expect(key.key).toMatch(/^mcp_live_[0-9A-Za-z]{32}$/u)
    expect([key.kind, key.plan]).toEqual(["mcp", "free"])
    const refused = tenders(["accounts", "add-pack", "--email", "ops@example.com"], env)
    expect(refused.status).not.toBe(0)
    expect(
      tenders(["accounts", "set", "--email", "ops@example.com", "--plan", "pro", "--monthly-limit", "10"], env).stdout
    ).toContain("plan pro, 10 calls a month (override)")
    expect(tenders(["accounts", "add-pack", "--email", "ops@example.com"], env).stdout).toContain("1 pack(s)")
    const listed = JSON.parse(tenders(["keys", "list", "--json"], env).stdout) as Array<Record<string, unknown>>
    const mine = listed.find((k) => k.keyId === key.keyId)
    expect(Object.keys(mine ?? {})).toEqual([
      "keyId",
      "accountId",
      "email",
      "plan",
      "kind",
      "prefix",
      "createdAt",
      "revokedAt"
    ])
    expect(mine?.plan).toBe("pro")
    expect(JSON.stringify(listed)).not.toContain(key.key)
    expect(tenders(["keys", "revoke", key.keyId], env).status).toBe(0)
    const after = JSON.parse(tenders(["keys", "list", "--json"], env).stdout) as Array<{
      keyId: string
      revokedAt: string | null
    }>
    expect(after.find((k) => k.keyId === key.keyId)?.revokedAt).toMatch(/Z$/u)
  })
})
