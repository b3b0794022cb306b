import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backendEnv, childEnv, e2eBackends, startServer, tendersAsync, waitFor } from "./cli.ts"

const tedPage = readFileSync(
  join(
    import.meta.dirname,
    "..",
    "..",
    "adapters-sources",
    "test",
    "fixtures",
    "ted",
    "RECONSTRUCTED-search-response-original-change-cancel.json"
  ),
  "utf8"
)

/** A stand-in for the three sources on loopback: TED answers one page, the others have nothing new. */
const fakeSources = async () => {
  const requests: Array<{ path: string }> = []
  let tedStatus = 200
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "" })
    if ((req.url ?? "").startsWith("/v3/notices/search")) {
      if (tedStatus !== 200) {
        res.writeHead(tedStatus, { "content-type": "application/json" }).end(JSON.stringify({ message: "unavailable" }))
        return
      }
      const body = JSON.parse(tedPage) as Record<string, unknown>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ...body, iterationNextToken: null }))
      return
    }
    if ((req.url ?? "").includes("rss")) {
      res
        .writeHead(200, { "content-type": "application/rss+xml" })
        .end(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>EIS</title></channel></rss>`)
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  return {
    base,
    requests,
    setTedStatus: (status: number) => (tedStatus = status),
    close: () => new Promise((r) => server.close(r))
  }
}

describe("tenders ingest --source X (live) and tenders sources", () => {
  it("fetches from the source's address, changes nothing on a re-run; a failing source exits non-zero", async () => {
    const sources = await fakeSources()
    const dataDir = mkdtempSync(join(tmpdir(), "tdl-"))
    const env = childEnv({
      TENDERS_DATA_DIR: dataDir,
      TENDERS_TED_BASE_URL: sources.base,
      TENDERS_TED_REQUEST_INTERVAL_MS: "0",
      TENDERS_TED_MAX_ATTEMPTS: "1"
    })
    try {
      const first = await tendersAsync(["ingest", "--source", "ted", "--json"], env)
      expect(first.status, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toMatchObject({ source: "ted", new: 1, amended: 1, cancelled: 1, error: null })
      const again = await tendersAsync(["ingest", "--source", "ted", "--since", "2026-01-01", "--json"], env)
      expect(JSON.parse(again.stdout)).toMatchObject({ new: 0, amended: 0, cancelled: 0, unchanged: 3 })
      sources.setTedStatus(503)
      const failing = await tendersAsync(["ingest", "--source", "ted"], env)
      expect(failing.status).not.toBe(0)
      expect(failing.stdout).toContain("failed")
      const report = JSON.parse((await tendersAsync(["sources", "--json"], env)).stdout) as {
        status: string
        sources: Array<{ code: string; status: string; lastError: { message: string } | null }>
      }
      expect(report.status).toBe("degraded")
      const ted = report.sources.find((s) => s.code === "ted")
      expect(ted?.status).toBe("error")
      expect(ted?.lastError?.message).toContain("503")
      expect((await tendersAsync(["sources"], env)).stdout).toContain("overall: degraded")
      expect((await tendersAsync(["ingest", "--source", "ted", "--since", "yesterday"], env)).status).not.toBe(0)
    } finally {
      await sources.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

// One scheduled run per slot across replicas is proved in process on TestClock (core BackgroundWork.test.ts) and by
// the store's concurrent claims on both stores (store-postgres store.test.ts); this proves the server wires it up.
describe.each(e2eBackends)("scheduled ingestion by tenders serve on the %s", (backend) => {
  let sources: Awaited<ReturnType<typeof fakeSources>>
  const dataDir = mkdtempSync(join(tmpdir(), "tds-"))
  let drop = async (): Promise<unknown> => undefined

  beforeAll(async () => {
    sources = await fakeSources()
  })
  afterAll(async () => {
    await sources.close()
    await drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("fetches each due source, and health and search follow the source's failure and recovery", async () => {
    const chosen = await backendEnv(backend, dataDir, {
      TENDERS_TED_BASE_URL: sources.base,
      TENDERS_GNUMNER_BASE_URL: sources.base,
      TENDERS_EAEU_RSS_URL: `${sources.base}/rss.html`,
      TENDERS_TED_INTERVAL: "1 second",
      TENDERS_GNUMNER_INTERVAL: "1 hour",
      TENDERS_EAEU_INTERVAL: "1 hour",
      TENDERS_TED_REQUEST_INTERVAL_MS: "0",
      TENDERS_GNUMNER_REQUEST_INTERVAL_MS: "0",
      TENDERS_EAEU_REQUEST_INTERVAL_MS: "0",
      TENDERS_SCHEDULER_TICK: "100 millis",
      TENDERS_TED_MAX_ATTEMPTS: "1",
      TENDERS_GNUMNER_MAX_ATTEMPTS: "1",
      TENDERS_EAEU_MAX_ATTEMPTS: "1"
    })
    drop = chosen.drop
    const server = await startServer([], chosen.env, ["--no-seed"])
    const tedStatus = async () => {
      const health = (await (await fetch(`${server.base}/health`)).json()) as {
        sources: Array<{ code: string; status: string }>
      }
      return health.sources.find((s) => s.code === "ted")?.status
    }
    try {
      await waitFor(async () => (await tedStatus()) === "ok", { timeout: 30_000, what: "a successful TED run" })
      expect(sources.requests.some((r) => r.path.startsWith("/v3/notices/search"))).toBe(true)
      const sourcesCli = JSON.parse((await tendersAsync(["sources", "--json"], chosen.env)).stdout) as {
        sources: Array<{ code: string; lastRun: { summary: Record<string, number> } | null }>
      }
      expect(sourcesCli.sources.find((s) => s.code === "ted")?.lastRun?.summary["rejected"]).toBe(0)

      sources.setTedStatus(503)
      await waitFor(async () => (await tedStatus()) === "error", {
        timeout: 30_000,
        what: "TED to be reported failing"
      })
      const key = JSON.parse(
        (await tendersAsync(["keys", "create", "--email", "fleet@example.com", "--plan", "pro", "--json"], chosen.env))
          .stdout
      ) as { key: string }
      const search = await fetch(`${server.base}/v1/tenders/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: JSON.stringify({ q: "" })
      })
      expect(search.status).toBe(200)
      expect(((await search.json()) as { degradedSources?: Array<string> }).degradedSources).toContain("ted")

      sources.setTedStatus(200)
      await waitFor(async () => (await tedStatus()) === "ok", { timeout: 30_000, what: "TED to recover" })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 120_000)
})
