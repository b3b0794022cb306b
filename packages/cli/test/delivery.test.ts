import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpsServer } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childEnv, startServer, tendersAsync } from "./cli.ts"

const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown }, addressOf: () => unknown) =>
  new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = addressOf()
      resolve(typeof address === "object" && address !== null && "port" in address && typeof address.port === "number" ? address.port : 0)
    })
  })

describe("alert delivery end to end: e-mail digest over SMTP and a signed webhook", () => {
  const dir = mkdtempSync(join(tmpdir(), "tdw-"))
  const mails: Array<string> = []
  const hooks: Array<{ headers: Record<string, string>; body: string }> = []
  let smtp: SMTPServer
  let smtpPort = 0
  let https: ReturnType<typeof createHttpsServer>
  let httpsPort = 0

  beforeAll(async () => {
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1"], { stdio: "ignore" })
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
    https = createHttpsServer({ key: readFileSync(join(dir, "k.pem")), cert: readFileSync(join(dir, "c.pem")) }, (req, res) => {
      let body = ""
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      req.on("end", () => {
        const headers: Record<string, string> = {}
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v
        hooks.push({ headers, body })
        res.writeHead(204).end()
      })
    })
    httpsPort = await listen(https, () => https.address())
  })

  afterAll(async () => {
    await new Promise((resolve) => smtp.close(() => resolve(undefined)))
    await new Promise((resolve) => https.close(() => resolve(undefined)))
    rmSync(dir, { recursive: true, force: true })
  })

  it("delivers a new alert once by e-mail and once as a webhook the receiver can verify", async () => {
    const env = childEnv({
      TENDERS_DATA_DIR: join(dir, "data"),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      TENDERS_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${httpsPort}`,
      TENDERS_WEBHOOK_CA_FILE: join(dir, "c.pem"),
      TENDERS_TED_BASE_URL: "http://127.0.0.1:9/", TENDERS_GNUMNER_BASE_URL: "http://127.0.0.1:9/", TENDERS_EAEU_RSS_URL: "http://127.0.0.1:9/rss",
      TENDERS_TED_MAX_ATTEMPTS: "1", TENDERS_GNUMNER_MAX_ATTEMPTS: "1", TENDERS_EAEU_MAX_ATTEMPTS: "1",
      TENDERS_SCHEDULER_TICK: "200 millis"
    })
    const server = await startServer([], env, ["--no-seed"])
    try {
      const created = await tendersAsync(["keys", "create", "--email", "desk@example.com", "--plan", "pro", "--json"], env)
      const { key } = JSON.parse(created.stdout) as { key: string }
      const saved = await fetch(`${server.base}/v1/watchlists`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Lighthouses", filters: { q: "lighthouse" }, channels: { webhook: `https://127.0.0.1:${httpsPort}/hook` } })
      })
      expect(saved.status, await saved.clone().text()).toBe(201)
      const file = join(dir, "lighthouse.jsonl")
      const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/u, "Z")
      writeFileSync(file, `${JSON.stringify({
        id: "ted-424242-2026", source: "ted", nativeId: "424242-2026", title: "Lighthouse lamp <refurbishment>", buyer: "Commissioners of Irish Lights",
        country: "IE", region: null, budget: "85000", currency: "EUR", deadline, publishedAt: null, status: "open",
        url: "https://ted.europa.eu/en/notice/-/detail/424242-2026", cpvCodes: ["45259000"], okpd2Codes: [], lots: [], docsUrl: []
      })}\n`)
      expect((await tendersAsync(["ingest", "--from", file], env)).status).toBe(0)
      for (let i = 0; i < 150 && (mails.length === 0 || hooks.length === 0); i++) await new Promise((r) => setTimeout(r, 100))
      await new Promise((r) => setTimeout(r, 1_000))
      expect(mails).toHaveLength(1)
      expect(mails[0]).toContain("Lighthouses")
      expect(mails[0]).toContain("&lt;refurbishment&gt;")
      expect(hooks).toHaveLength(1)
      const secret = (await tendersAsync(["webhooks", "secret", "--email", "desk@example.com"], env)).stdout.trim()
      const payload = new Webhook(secret).verify(hooks[0]?.body ?? "", hooks[0]?.headers ?? {}) as { type: string; data: { reason: string; tender: { id: string } } }
      expect([payload.type, payload.data.reason, payload.data.tender.id]).toEqual(["alert.created", "new", "ted-424242-2026"])
      const outbox = JSON.parse((await tendersAsync(["deliveries", "--json"], env)).stdout) as Array<{ status: string }>
      expect(outbox.map((d) => d.status)).toEqual(["delivered", "delivered"])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 90_000)
})
