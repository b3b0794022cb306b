// Issue 20's probes of the sign-in form, against a running `tenders serve` on each store, as an attacker sends them:
// an open mail relay, races past the limits, a lockout of another's address, the timing of closed sign-up, and 500s.
// Mail goes to a loopback SMTP server that records every envelope recipient; clients are told apart by
// X-Forwarded-For from a trusted proxy (the test), as behind a load balancer.
import { refusedAddressProbes } from "@tenders/core/testing"
import { mkdtempSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backendEnv, e2eBackends, startServer, tendersAsync, waitFor } from "./cli.ts"

interface Mail {
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

for (const backend of e2eBackends) {
  describe(`the sign-in form against an outside probe, on the ${backend}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "tds-"))
    const mails: Array<Mail> = []
    let connections = 0
    // While set, the SMTP server does not greet new connections: a mail cannot be sent until it is released.
    let hold: Promise<void> | undefined
    let release = () => {}
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onConnect(_session, callback) {
        connections++
        void (hold ?? Promise.resolve()).then(() => callback())
      },
      onData(stream, session, callback) {
        const chunks: Array<Buffer> = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8")
          })
          callback()
        })
      }
    })
    let server: Awaited<ReturnType<typeof startServer>> | undefined
    let env: NodeJS.ProcessEnv = {}
    let drop = async (): Promise<unknown> => undefined

    beforeAll(async () => {
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
      const port = (smtp.server.address() as AddressInfo).port
      const chosen = await backendEnv(backend, dir, {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        TENDERS_SIGNUP: "closed",
        TENDERS_TRUSTED_PROXIES: "127.0.0.1, ::1"
      })
      env = chosen.env
      drop = chosen.drop
      server = await startServer([], env)
      for (const email of ["known@example.org", "raced@example.org", "owner@example.org"]) {
        const made = await tendersAsync(["accounts", "set", "--email", email, "--plan", "free"], env)
        expect(made.status, made.stderr).toBe(0)
      }
    }, 180_000)
    afterAll(async () => {
      release()
      expect(await server?.stop()).toBe(0)
      await drop()
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    const ask = (email: string, client: string) =>
      fetch(`${server?.base}/dashboard/sign-in`, {
        method: "POST",
        headers: {
          origin: server?.base ?? "",
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": client
        },
        body: new URLSearchParams({ email }).toString()
      }).then(async (res) => ({ status: res.status, text: await res.text() }))
    const recipients = () => mails.flatMap((m) => m.to)

    it("answers a known and an unknown address alike, before any mail is sent, with sign-up closed", async () => {
      hold = new Promise((resolve) => (release = resolve))
      const before = connections
      const known = await ask("known@example.org", "192.0.2.1")
      const unknown = await ask("stranger@example.org", "192.0.2.1")
      expect(known.status).toBe(200)
      expect(unknown.status).toBe(200)
      expect(known.text.replaceAll("known@example.org", "E")).toBe(unknown.text.replaceAll("stranger@example.org", "E"))
      // Both answers came while the mail server had not even greeted: the known address's mail is still waiting.
      expect(mails).toHaveLength(0)
      await waitFor(() => connections > before, { timeout: 30_000, what: "the sign-in mail's SMTP connection" })
      release()
      hold = undefined
      await waitFor(() => recipients().includes("known@example.org"), { timeout: 30_000, what: "the mail" })
      expect(recipients()).toEqual(["known@example.org"])
    })

    it("refuses an address that is a list or carries a header, and mails nobody", async () => {
      for (const email of refusedAddressProbes) {
        expect((await ask(email, "192.0.2.2")).status, JSON.stringify(email)).toBe(400)
      }
      const listed = await tendersAsync(["keys", "create", "--email", "a@example.org,b@example.org"], env)
      expect(listed.status).toBe(1)
      expect(listed.stderr).toContain("is not an e-mail address")
      expect(recipients()).toEqual(["known@example.org"])
    })

    it("answers 400, not 500, for a NUL or a 12,000-character address", async () => {
      expect((await ask("\u0000", "192.0.2.3")).status).toBe(400)
      expect((await ask(`${"x".repeat(12_000)}@example.org`, "192.0.2.3")).status).toBe(400)
    })

    it("counts the limits exactly under concurrent requests: 5 links for one address and client, 20 per client", async () => {
      const raced = await Promise.all(Array.from({ length: 30 }, () => ask("raced@example.org", "198.51.100.1")))
      expect(raced.filter((r) => r.status === 200)).toHaveLength(5)
      expect(raced.filter((r) => r.status === 429)).toHaveLength(25)
      const spread = await Promise.all(
        Array.from({ length: 40 }, (_, i) => ask(`spread-${i}@example.org`, "198.51.100.2"))
      )
      expect(spread.filter((r) => r.status === 200)).toHaveLength(20)
      await waitFor(() => recipients().filter((to) => to === "raced@example.org").length >= 5, {
        timeout: 30_000,
        what: () => `5 mails to raced@example.org (${recipients().length} sent)`
      })
      expect(recipients().filter((to) => to === "raced@example.org")).toHaveLength(5)
      expect(mails.every((m) => m.to.length === 1)).toBe(true)
    })

    it("never refuses the owner's own request because others asked for the address", async () => {
      const strangers = await Promise.all(Array.from({ length: 8 }, () => ask("owner@example.org", "203.0.113.66")))
      expect(strangers.filter((r) => r.status === 429).length).toBe(3)
      expect((await ask("owner@example.org", "203.0.113.7")).status).toBe(200)
    })
  })
}
