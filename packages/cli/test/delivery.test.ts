import { recordLine } from "@tenders/core/testing"
import { loopbackCertificate } from "../../adapters-notify/test/loopbackCertificate.ts"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpsServer, type Server } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backendEnv, e2eBackends, startServer, tendersAsync, waitFor } from "./cli.ts"

const fixtures = join(import.meta.dirname, "..", "..", "adapters-sources", "test", "fixtures", "ted")

const listen = (
  server: { listen: (port: number, host: string, cb: () => void) => unknown },
  addressOf: () => unknown
) =>
  new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = addressOf()
      resolve(
        typeof address === "object" && address !== null && "port" in address && typeof address.port === "number"
          ? address.port
          : 0
      )
    })
  })

interface Hook {
  readonly headers: Record<string, string>
  readonly body: string
  readonly answered: "held" | "204"
}

/** A TED date (`2026-11-22+00:00`) and time (`10:00:00+00:00`) in UTC, `hours` from now. */
const tedDeadline = (hours: number) => {
  const at = new Date(Date.now() + hours * 3_600_000).toISOString()
  return { date: `${at.slice(0, 10)}+00:00`, time: `${at.slice(11, 19)}+00:00` }
}

/** A recorded TED search response holding only `notice`, its dates moved next to today (nothing else changes). */
const tedPayload = (notice: Record<string, unknown>, deadlineHours: number) => {
  const deadline = tedDeadline(deadlineHours)
  return JSON.stringify({
    notices: [
      {
        ...notice,
        "publication-date": `${new Date().toISOString().slice(0, 10)}+00:00`,
        "deadline-receipt-tender-date-lot": [deadline.date],
        "deadline-receipt-tender-time-lot": [deadline.time]
      }
    ],
    totalNoticeCount: 1,
    timedOut: false
  })
}

describe("alert delivery end to end: the REST API, an SMTP server and an HTTPS webhook receiver", () => {
  const dir = mkdtempSync(join(tmpdir(), "tdw-"))
  const mails: Array<string> = []
  const hooks: Array<Hook> = []
  let hold = false
  let smtp: SMTPServer
  let smtpPort = 0
  let https: Server
  let certificate: ReturnType<typeof loopbackCertificate>
  let httpsPort = 0

  beforeAll(async () => {
    certificate = loopbackCertificate(dir)
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let text = ""
        stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
        stream.on("end", () => {
          mails.push(text)
          callback()
        })
      }
    })
    smtpPort = await listen(smtp, () => smtp.server.address())
    https = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
      let body = ""
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      req.on("end", () => {
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v
        if (hold) {
          // The receiver is slow: no answer until the sender gives up or goes away.
          hooks.push({ headers, body, answered: "held" })
          return
        }
        hooks.push({ headers, body, answered: "204" })
        res.writeHead(204).end()
      })
    })
    httpsPort = await listen(https, () => https.address())
  })

  afterAll(async () => {
    https.closeAllConnections()
    await new Promise((resolve) => smtp.close(() => resolve(undefined)))
    await new Promise((resolve) => https.close(() => resolve(undefined)))
    rmSync(dir, { recursive: true, force: true })
  })

  for (const backend of e2eBackends) {
    describe(`on the ${backend}`, () => {
      const setup = async (name: string, extra: Record<string, string> = {}) => {
        const { env, drop } = await backendEnv(backend, join(dir, name), {
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          TENDERS_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${httpsPort}`,
          TENDERS_WEBHOOK_CA_FILE: certificate.caFile,
          TENDERS_TED_BASE_URL: "http://127.0.0.1:9/",
          TENDERS_GNUMNER_BASE_URL: "http://127.0.0.1:9/",
          TENDERS_EAEU_RSS_URL: "http://127.0.0.1:9/rss",
          TENDERS_TED_MAX_ATTEMPTS: "1",
          TENDERS_GNUMNER_MAX_ATTEMPTS: "1",
          TENDERS_EAEU_MAX_ATTEMPTS: "1",
          TENDERS_SCHEDULER_TICK: "200 millis",
          ...extra
        })
        const email = `${name}@example.com`
        const created = await tendersAsync(["keys", "create", "--email", email, "--plan", "pro", "--json"], env)
        expect(created.status, created.stderr).toBe(0)
        const { key } = JSON.parse(created.stdout) as { key: string }
        return { env, key, email, drop }
      }
      const watch = (base: string, key: string, body: unknown) =>
        fetch(`${base}/v1/watchlists`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
      const delivered = () => hooks.filter((h) => h.answered === "204")
      /** The outbox as `tenders deliveries --json` prints it, from a process beside the running server. */
      const outbox = async (env: NodeJS.ProcessEnv) => {
        const listed = await tendersAsync(["deliveries", "--json"], env)
        expect(listed.status, listed.stderr).toBe(0)
        return (JSON.parse(listed.stdout) as Array<{ status: string }>).map((d) => d.status)
      }
      /** Waits until every one of `count` deliveries is delivered: none is left to send, so nothing more can arrive. */
      const settled = (env: NodeJS.ProcessEnv, count: number) => {
        let statuses: ReadonlyArray<string> = []
        return waitFor(
          async () => {
            statuses = await outbox(env)
            return statuses.length === count && statuses.every((status) => status === "delivered")
          },
          {
            timeout: 30_000,
            what: () => `${count} delivered deliveries (outbox: ${statuses.join(", ")})`,
            interval: 250
          }
        )
      }

      it("new, amended, deadline-24h: once each in /v1/alerts (nearest first), signed webhooks, digests", async () => {
        mails.length = 0
        hooks.length = 0
        hold = false
        const { env, key, email, drop } = await setup(`flow-${e2eBackends.indexOf(backend)}`)
        const server = await startServer([], env, ["--no-seed"])
        try {
          const saved = await watch(server.base, key, {
            name: "Software",
            filters: { q: "software" },
            channels: { webhook: `https://127.0.0.1:${httpsPort}/hook` }
          })
          expect(saved.status, await saved.clone().text()).toBe(201)
          const { watchlistId } = (await saved.json()) as { watchlistId: string }
          const recorded = JSON.parse(
            readFileSync(join(fixtures, "RECONSTRUCTED-search-response-original-change-cancel.json"), "utf8")
          ) as { notices: Array<Record<string, unknown>> }
          const spanish = JSON.parse(
            readFileSync(join(fixtures, "search-response-es-links-per-language.json"), "utf8")
          ) as { notices: Array<Record<string, unknown>> }
          const ingest = async (file: string, payload: string) => {
            writeFileSync(join(dir, file), payload)
            const result = await tendersAsync(["ingest", "--source", "ted", "--from", join(dir, file)], env)
            expect(result.status, result.stderr).toBe(0)
          }

          const sent = (webhooks: number, digests: number) =>
            waitFor(() => delivered().length >= webhooks && mails.length >= digests, {
              timeout: 30_000,
              what: () => `${webhooks} webhooks and ${digests} e-mails (got ${delivered().length} and ${mails.length})`
            })

          // 1. A new matching tender (the original notice), deadline in 10 days.
          await ingest("original.json", tedPayload(recorded.notices[0] ?? {}, 240))
          await sent(1, 1)
          // 2. Its amendment (the change notice: the deadline moves to 12 days).
          await ingest("change.json", tedPayload(recorded.notices[1] ?? {}, 288))
          await sent(2, 2)
          // 3. Another matching tender whose deadline is 23 hours away: new, and in its last 24 hours.
          await ingest("closing.json", tedPayload(spanish.notices[0] ?? {}, 23))
          await sent(4, 3)
          // 4 webhooks and a digest per evaluation run in the outbox, queued with their alerts: every one delivered.
          // The run after each ingest and the server's scheduled runs race, so the last tender's two alerts come in
          // one digest, or in one each from two runs.
          await waitFor(
            async () => {
              const statuses = await outbox(env)
              return statuses.length === 4 + mails.length && statuses.every((status) => status === "delivered")
            },
            { timeout: 30_000, what: "every queued delivery delivered and received" }
          )

          const response = await fetch(`${server.base}/v1/alerts`, { headers: { authorization: `Bearer ${key}` } })
          expect(response.status).toBe(200)
          const { alerts } = (await response.json()) as {
            alerts: Array<{ watchlistId: string; reason: string; tender: { id: string; deadline: string } }>
          }
          expect(alerts.map((a) => a.tender.id)).toEqual([
            "ted-412169-2016",
            "ted-412169-2016",
            "ted-12345-2019",
            "ted-12345-2019"
          ])
          expect(
            alerts
              .slice(0, 2)
              .map((a) => a.reason)
              .toSorted()
          ).toEqual(["deadline-24h", "new"])
          expect(
            alerts
              .slice(2)
              .map((a) => a.reason)
              .toSorted()
          ).toEqual(["amended", "new"])
          expect(alerts.every((a) => a.watchlistId === watchlistId)).toBe(true)
          const amended = await fetch(`${server.base}/v1/tenders/ted-12345-2019`, {
            headers: { authorization: `Bearer ${key}` }
          })
          expect(((await amended.json()) as { status: string }).status).toBe("amended")

          // The receiver got each alert once, signed with the account's secret, verified by the standard library.
          const secret = (await tendersAsync(["webhooks", "secret", "--email", email], env)).stdout.trim()
          const events = delivered().map(
            (h) =>
              new Webhook(secret).verify(h.body, h.headers) as {
                type: string
                data: { reason: string; tender: { id: string } }
              }
          )
          expect(events.every((e) => e.type === "alert.created")).toBe(true)
          expect(events.map((e) => `${e.data.tender.id} ${e.data.reason}`).toSorted()).toEqual(
            alerts.map((a) => `${a.tender.id} ${a.reason}`).toSorted()
          )
          expect(new Set(delivered().map((h) => h.headers["webhook-id"])).size).toBe(4)
          expect(hooks).toHaveLength(4)

          // One digest per evaluation run, each naming the watchlist and its tenders: the first tender's new and
          // amended alerts in one each, the last tender's two alerts in one or two.
          expect(mails.length).toBeGreaterThanOrEqual(3)
          expect(mails.length).toBeLessThanOrEqual(4)
          expect(mails.every((m) => m.includes("Software") && m.includes("multipart/alternative"))).toBe(true)
          expect(mails.filter((m) => m.includes("Publications Office of the European Union"))).toHaveLength(2)
          expect(mails.filter((m) => /Software licences and support/u.test(m))).toHaveLength(mails.length - 2)
        } finally {
          expect(await server.stop()).toBe(0)
          await drop()
        }
      }, 120_000)

      it("a server killed mid-delivery loses nothing on restart; the repeated call keeps its webhook-id", async () => {
        mails.length = 0
        hooks.length = 0
        hold = true
        // A short lease so the restarted server takes the interrupted delivery back within seconds, not minutes.
        const { env, key, drop } = await setup(`kill-${e2eBackends.indexOf(backend)}`, {
          TENDERS_DELIVERY_LEASE: "3 seconds",
          TENDERS_WEBHOOK_TIMEOUT: "1 second"
        })
        const first = await startServer([], env, ["--no-seed"])
        let second: Awaited<ReturnType<typeof startServer>> | null = null
        try {
          const saved = await watch(first.base, key, {
            name: "Ferries",
            filters: { q: "ferry" },
            channels: { webhook: `https://127.0.0.1:${httpsPort}/ferries` }
          })
          expect(saved.status, await saved.clone().text()).toBe(201)
          const deadline = new Date(Date.now() + 9 * 86_400_000).toISOString().replace(/\.\d{3}Z$/u, "Z")
          const lines = [1, 2, 3].map((n) =>
            recordLine({
              id: `ted-90000${n}-2026`,
              title: `Ferry terminal works, phase ${n}`,
              buyer: "Port of Tallinn",
              country: "EE",
              budget: "1200000",
              deadline,
              publishedAt: null,
              cpvCodes: ["45241000"]
            })
          )
          writeFileSync(join(dir, "ferries.jsonl"), `${lines.join("\n")}\n`)
          expect((await tendersAsync(["ingest", "--from", join(dir, "ferries.jsonl")], env)).status).toBe(0)
          await waitFor(() => hooks.length > 0, {
            timeout: 30_000,
            what: "the first webhook call, held by the receiver"
          })
          expect(hooks.map((h) => h.answered)).toEqual(["held"])
          // Killed while its first webhook call waits for an answer: no finalizer, no chance to record anything.
          await first.kill()
          const interrupted = hooks[0]?.headers["webhook-id"]
          hold = false
          second = await startServer([], env, ["--no-seed"])
          await waitFor(() => delivered().length >= 3 && mails.length >= 1, {
            timeout: 40_000,
            what: () => `3 webhooks and 1 e-mail after the restart (got ${delivered().length} and ${mails.length})`
          })
          // 3 webhooks and 1 digest in the outbox.
          await settled(env, 4)
          const ids = delivered().map((h) => h.headers["webhook-id"])
          expect(ids).toHaveLength(3)
          expect(new Set(ids).size).toBe(3)
          expect(ids).toContain(interrupted)
          expect(mails).toHaveLength(1)
          for (const n of [1, 2, 3]) expect(mails[0]).toContain(`Ferry terminal works, phase ${n}`)
          const alerts = (await (
            await fetch(`${second.base}/v1/alerts`, { headers: { authorization: `Bearer ${key}` } })
          ).json()) as { alerts: Array<{ reason: string }> }
          expect(alerts.alerts.map((a) => a.reason)).toEqual(["new", "new", "new"])
        } finally {
          await first.kill()
          if (second !== null) expect(await second.stop()).toBe(0)
          await drop()
        }
      }, 150_000)
    })
  }
})
