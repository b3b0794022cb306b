import { afterAll, assert, beforeAll, beforeEach, describe, it } from "@effect/vitest"
import type { DeliveryOutcome, WebhookCall } from "@tenders/core"
import { Duration, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { loopbackCertificate } from "./loopbackCertificate.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { type HostLookup, makeWebhookSender, outcomeForStatus } from "../src/index.ts"
import { makeAlert } from "./fixtures.ts"

interface Hit {
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
}

type Mode = { readonly status: number; readonly location?: string } | { readonly delayMs: number }

const dir = mkdtempSync(join(tmpdir(), "tenders-webhook-"))
let server: Server
let caFile = ""
let port = 0
let mode: Mode = { status: 204 }
const hits: Array<Hit> = []

beforeAll(async () => {
  const { key, cert, caFile: ca } = loopbackCertificate(dir)
  caFile = ca
  server = createServer({ key, cert }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers[name] = value
      }
      hits.push({ path: request.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8") })
      const current = mode
      if ("delayMs" in current) {
        setTimeout(() => response.writeHead(204).end(), current.delayMs).unref()
        return
      }
      response.writeHead(current.status, current.location === undefined ? {} : { location: current.location }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address: AddressInfo | string | null = server.address()
  if (address === null || typeof address === "string") throw new Error("no HTTPS port")
  port = address.port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => {
  hits.length = 0
  mode = { status: 204 }
})

const secret = `whsec_${randomBytes(32).toString("base64")}`
const callTo = (url: string, webhookId = "msg_2p5Yyq0d6Jb4vQk8"): WebhookCall => {
  const timestamp = Math.floor(Date.now() / 1000)
  const body = JSON.stringify({
    type: "alert.created",
    timestamp: new Date(timestamp * 1000).toISOString(),
    data: makeAlert()
  })
  return { url, secret, webhookId, timestamp, body }
}
const allowed = () => makeWebhookSender({ allowHosts: [`127.0.0.1:${port}`], caFile, timeout: Duration.seconds(2) })
const guarded = () => makeWebhookSender({ allowHosts: [], caFile })
const assertFailed = (outcome: DeliveryOutcome, disable: boolean, reason?: RegExp) => {
  assert.strictEqual(outcome._tag, "Failed")
  if (outcome._tag !== "Failed") return
  assert.strictEqual(outcome.disable, disable)
  if (reason !== undefined) assert.match(outcome.reason, reason)
}

describe("makeWebhookSender against an allowed HTTPS receiver", () => {
  it.live("posts a body the receiver verifies, with the same webhook-id on every send", () =>
    Effect.gen(function* () {
      const call = callTo(`https://127.0.0.1:${port}/hooks/tenders`)
      const send = allowed()
      assert.deepStrictEqual(yield* send(call), { _tag: "Delivered" })
      assert.deepStrictEqual(yield* send(call), { _tag: "Delivered" })
      assert.strictEqual(hits.length, 2)
      for (const hit of hits) {
        assert.strictEqual(hit.path, "/hooks/tenders")
        assert.strictEqual(hit.body, call.body)
        assert.strictEqual(hit.headers["content-type"], "application/json")
        assert.strictEqual(hit.headers["webhook-id"], call.webhookId)
        assert.strictEqual(hit.headers["webhook-timestamp"], String(call.timestamp))
        assert.match(hit.headers["webhook-signature"] ?? "", /^v1,[A-Za-z0-9+/=]+$/u)
        assert.deepStrictEqual(new Webhook(secret).verify(hit.body, hit.headers), JSON.parse(call.body))
      }
    })
  )

  it.live("500 is Retry, 410 is Failed and disabling, 400 is Failed", () =>
    Effect.gen(function* () {
      const call = callTo(`https://127.0.0.1:${port}/`)
      mode = { status: 500 }
      assert.strictEqual((yield* allowed()(call))._tag, "Retry")
      mode = { status: 429 }
      assert.strictEqual((yield* allowed()(call))._tag, "Retry")
      mode = { status: 410 }
      assertFailed(yield* allowed()(call), true)
      mode = { status: 400 }
      assertFailed(yield* allowed()(call), false)
    })
  )

  it.live("a 302 is Failed and the redirect is not followed", () =>
    Effect.gen(function* () {
      mode = { status: 302, location: `https://127.0.0.1:${port}/elsewhere` }
      assertFailed(yield* allowed()(callTo(`https://127.0.0.1:${port}/`)), false, /redirect/u)
      assert.deepStrictEqual(
        hits.map((hit) => hit.path),
        ["/"]
      )
    })
  )

  it.live("a receiver slower than timeoutMs is Retry", () =>
    Effect.gen(function* () {
      mode = { delayMs: 3_000 }
      const send = makeWebhookSender({ allowHosts: [`127.0.0.1:${port}`], caFile, timeout: Duration.millis(200) })
      const outcome = yield* send(callTo(`https://127.0.0.1:${port}/`))
      assert.strictEqual(outcome._tag, "Retry")
      if (outcome._tag === "Retry") assert.match(outcome.reason, /timeout|timed out|abort/iu)
    })
  )

  it.live("an allowed host name is resolved, pinned to its checked address and verified by name", () =>
    Effect.gen(function* () {
      const send = makeWebhookSender({ allowHosts: [`localhost:${port}`], caFile, timeout: Duration.seconds(2) })
      assert.deepStrictEqual(yield* send(callTo(`https://localhost:${port}/named`)), { _tag: "Delivered" })
      assert.deepStrictEqual(
        hits.map((hit) => hit.path),
        ["/named"]
      )
    })
  )

  it.live("without the CA the certificate is not trusted: Retry", () =>
    Effect.gen(function* () {
      const send = makeWebhookSender({ allowHosts: [`127.0.0.1:${port}`], caFile: null, timeout: Duration.seconds(2) })
      assert.strictEqual((yield* send(callTo(`https://127.0.0.1:${port}/`)))._tag, "Retry")
      assert.strictEqual(hits.length, 0)
    })
  )
})

/** The defect-3 probes and one address of every range of core's table, as a resolver could answer them. */
const refusedAddresses = [
  "64:ff9b::7f00:1",
  "64:ff9b::a9fe:a9fe",
  "2002:7f00:1::",
  "::127.0.0.1",
  "fec0::1",
  "198.18.0.1",
  "192.0.2.1",
  "0.0.0.0",
  "10.0.0.1",
  "100.64.0.1",
  "127.0.0.1",
  "169.254.169.254",
  "172.16.0.1",
  "192.0.0.1",
  "192.88.99.1",
  "192.168.0.1",
  "198.51.100.1",
  "203.0.113.1",
  "224.0.0.1",
  "240.0.0.1",
  "255.255.255.255",
  "::",
  "::1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "64:ff9b:1::1",
  "100::1",
  "2001::1",
  "2001:db8::1",
  "3fff::1",
  "5f00::1",
  "fc00::1",
  "fd00:ec2::254",
  "fe80::1%eth0",
  "ff02::1",
  "4000::1"
]

describe("makeWebhookSender SSRF guard", () => {
  it.live("refuses private, loopback, metadata and mapped addresses before connecting", () =>
    Effect.gen(function* () {
      const urls = [
        `https://127.0.0.1:${port}/`,
        `https://[::1]:${port}/`,
        "https://10.0.0.1/",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:127.0.0.1]/",
        `https://[::ffff:127.0.0.1]:${port}/`,
        "https://[fd00:ec2::254]/",
        "https://100.64.0.1/",
        `https://localhost:${port}/`
      ]
      for (const url of urls) {
        assertFailed(
          yield* guarded()(callTo(url)),
          false,
          /^refused webhook URL: must not point to a (non-public|local)/u
        )
      }
      assert.strictEqual(hits.length, 0)
    })
  )

  it.live("refuses plain http and malformed URLs", () =>
    Effect.gen(function* () {
      assertFailed(yield* guarded()(callTo(`http://127.0.0.1:${port}/`)), false, /https/u)
      assertFailed(yield* allowed()(callTo(`http://127.0.0.1:${port}/`)), false, /https/u)
      assertFailed(yield* guarded()(callTo("not a url")), false)
      assert.strictEqual(hits.length, 0)
    })
  )

  it.live("applies core's address table after DNS: a name resolving to any refused address is not connected to", () =>
    Effect.gen(function* () {
      const asked: Array<string> = []
      const resolvingTo =
        (addresses: ReadonlyArray<string>): HostLookup =>
        (host) => {
          asked.push(host)
          return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
        }
      const url = `https://hooks.example.com:${port}/hook`
      for (const address of refusedAddresses) {
        const send = makeWebhookSender({ allowHosts: [], caFile, lookup: resolvingTo([address]) })
        const outcome = yield* send(callTo(url))
        assertFailed(outcome, false, /^refused webhook target hooks\.example\.com:\d+: /u)
        if (outcome._tag === "Failed") assert.include(outcome.reason, address.split("%")[0] ?? address, address)
      }
      const mixed = makeWebhookSender({ allowHosts: [], caFile, lookup: resolvingTo(["93.184.215.14", "127.0.0.1"]) })
      assertFailed(yield* mixed(callTo(url)), false, /127\.0\.0\.1 is in 127\.0\.0\.0\/8/u)
      assert.strictEqual(asked.length, refusedAddresses.length + 1)
      assert.isTrue(asked.every((host) => host === "hooks.example.com"))
      assert.strictEqual(hits.length, 0)
    })
  )

  it("classifies statuses", () => {
    assert.deepStrictEqual(outcomeForStatus(200), { _tag: "Delivered" })
    assert.strictEqual(outcomeForStatus(408)._tag, "Retry")
    assert.strictEqual(outcomeForStatus(503)._tag, "Retry")
    assert.strictEqual(outcomeForStatus(301)._tag, "Failed")
    assert.strictEqual(outcomeForStatus(404)._tag, "Failed")
  })
})
