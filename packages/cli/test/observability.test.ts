import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backendEnv, e2eBackends, freePort, startServer, tenders, waitFor } from "./cli.ts"

/** One span as OTLP/HTTP JSON carries it. */
interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }>
}

const attribute = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue

interface OtlpExport {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ key: string; value: { stringValue?: string } }> }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }>
  }>
}

/** A loopback OTLP/HTTP receiver: keeps every JSON export posted to /v1/traces. */
const otlpReceiver = () => {
  const exports: Array<OtlpExport> = []
  const server: Server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += String(chunk)))
    request.on("end", () => {
      if (request.url === "/v1/traces") exports.push(JSON.parse(body) as OtlpExport)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  return {
    exports,
    spans: () => exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resolve(typeof address === "object" && address !== null ? address.port : 0)
        })
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const hasPromtool = () => spawnSync("promtool", ["--version"], { encoding: "utf8" }).status === 0

for (const backend of e2eBackends) {
  describe(`what an operator sees of tenders serve on the ${backend}`, () => {
    const token = "metrics-token-0123456789"
    const receiver = otlpReceiver()
    const dataDir = mkdtempSync(join(tmpdir(), "tobs-"))
    let server: Awaited<ReturnType<typeof startServer>> | undefined
    let env: NodeJS.ProcessEnv = {}
    let drop = async (): Promise<unknown> => undefined
    let metricsPort = 0
    const base = () => server?.base ?? ""

    beforeAll(async () => {
      const otlpPort = await receiver.listen()
      metricsPort = await freePort()
      const chosen = await backendEnv(backend, dataDir, {
        TENDERS_METRICS_TOKEN: token,
        TENDERS_METRICS_PORT: String(metricsPort),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        TENDERS_LOG_FORMAT: "json"
      })
      env = chosen.env
      drop = chosen.drop
      server = await startServer([], env)
    }, 180_000)

    afterAll(async () => {
      expect(await server?.stop()).toBe(0)
      await drop()
      await receiver.close()
      rmSync(dataDir, { recursive: true, force: true })
    }, 60_000)

    const scrape = (headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
      fetch(`${base()}/metrics`, { headers })

    it("answers /metrics 401 in the contract's shape without the token or with another, 200 with it", async () => {
      for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: token }]) {
        const res = await scrape(headers)
        expect(res.status).toBe(401)
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized")
      }
      const res = await scrape()
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/u)
      expect(await res.text()).toMatch(/^tenders_process_resident_memory_bytes \d+$/mu)
    })

    it("serves /metrics without a token on TENDERS_METRICS_PORT, bound to loopback", async () => {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(res.status).toBe(200)
      expect(await res.text()).toMatch(/^tenders_outbox_depth \d+$/mu)
    })

    it("exports a search's spans over OTLP, one trace from the edge through the use case to the store", async () => {
      const created = tenders(
        ["keys", "create", "--email", `obs-${Date.now()}@example.com`, "--plan", "pro", "--json"],
        env
      )
      expect(created.status, created.stderr).toBe(0)
      const key = (JSON.parse(created.stdout) as { key: string }).key
      const res = await fetch(`${base()}/v1/tenders/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ q: "road" })
      })
      expect(res.status).toBe(200)
      // The trace of this search (the earlier test's search was refused before its use case ran).
      const useCase = () => receiver.spans().find((span) => span.name === "searchTenders")
      const inTrace = () => receiver.spans().filter((span) => span.traceId === useCase()?.traceId)
      await waitFor(() => inTrace().some((span) => span.kind === 2), {
        timeout: 10_000,
        what: () => `the search's spans in ${JSON.stringify(receiver.spans().map((s) => s.name))}`
      })
      const trace = inTrace()
      const edge = trace.find((span) => span.kind === 2)
      expect(edge?.traceId).toMatch(/^[0-9a-f]{32}$/u)
      expect(edge === undefined ? undefined : attribute(edge, "http.route")).toBe("/v1/tenders/search")
      const names = trace.map((span) => span.name)
      for (const name of ["Authorization.bearer", "searchTenders", "PgTenderStore.search"])
        expect(names).toContain(name)
      // The store's statements are client spans of the same trace, under the store's span.
      const store = trace.find((span) => span.name === "PgTenderStore.search")
      const below = (parent: OtlpSpan | undefined): ReadonlyArray<OtlpSpan> =>
        parent === undefined
          ? []
          : trace.filter((span) => span.parentSpanId === parent.spanId).flatMap((span) => [span, ...below(span)])
      expect(below(store).some((span) => span.kind === 3)).toBe(true)
      // And the chain goes up from the store to the edge.
      const up = (span: OtlpSpan | undefined): ReadonlyArray<string> =>
        span === undefined ? [] : [span.name, ...up(trace.find((s) => s.spanId === span.parentSpanId))]
      expect(up(store).at(-1)).toBe(edge?.name)
      expect(up(store)).toContain("searchTenders")
      const service = receiver.exports[0]?.resourceSpans[0]?.resource.attributes.find((a) => a.key === "service.name")
      expect(service?.value.stringValue).toBe("tenders")
    })

    it("logs JSON lines with TENDERS_LOG_FORMAT=json, a request's with its trace id", async () => {
      await fetch(`${base()}/health`)
      await waitFor(() => (server?.output() ?? "").includes('"/health"'), { timeout: 5000, what: "a request log" })
      const lines = (server?.output() ?? "").split("\n").filter((line) => line.trim().length > 0)
      const entries = lines.map((line) => JSON.parse(line) as { message: unknown; traceId?: string })
      const request = entries.find((entry) => JSON.stringify(entry).includes('"http.url":"/health"'))
      expect(request?.message).toBe("Sent HTTP response")
      expect(request?.traceId).toMatch(/^[0-9a-f]{32}$/u)
      // The same id as the request's exported spans: the log line and the trace meet.
      await waitFor(() => receiver.spans().some((span) => span.traceId === request?.traceId), {
        timeout: 10_000,
        what: "the logged trace id among the exported spans"
      })
    })

    it("passes promtool check metrics on a live scrape with traffic on every surface", async (context) => {
      await fetch(`${base()}/health`)
      await fetch(`${base()}/v1/tenders/search`, { method: "POST", body: "{}" })
      await fetch(`${base()}/dashboard`, { redirect: "manual" })
      await fetch(`${base()}/mcp`, { method: "POST" })
      const body = await (await scrape()).text()
      expect(body).toMatch(/^tenders_store_connections\{state="in_use"\} \d+$/mu)
      // The search of the trace test, in its class.
      expect(body).toMatch(/^tenders_search_duration_seconds_count\{class="one_word",filters="false"\} [1-9]/mu)
      for (const route of ["/health", "/v1/tenders/search", "/dashboard", "/mcp"])
        expect(body).toContain(`tenders_http_requests_total{route="${route}"`)
      if (!hasPromtool()) {
        // CI installs it (.ci/run): there it is a failure, never a skip.
        if (process.env["CI"] !== undefined && process.env["CI"] !== "") throw new Error("promtool is not installed")
        context.skip("promtool is not installed (apt-get install prometheus)")
        return
      }
      const checked = spawnSync("promtool", ["check", "metrics"], { input: body, encoding: "utf8" })
      expect(checked.stdout + checked.stderr).toBe("")
      expect(checked.status).toBe(0)
    })
  })
}
