import { afterAll, assert, beforeAll, beforeEach, describe, it } from "@effect/vitest"
import { escapeHtml, parseEmailAddress } from "@tenders/core"
import { refusedAddressProbes } from "@tenders/core/testing"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"
import { digestSubject, makeEmailSender, renderDigest } from "../src/index.ts"
import { decodeQuotedPrintable, digest, partOf, signIn, subjectOf } from "./fixtures.ts"

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

const received: Array<Received> = []
let rejectWith: number | null = null

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(_address, _session, callback) {
    if (rejectWith === null) return callback()
    callback(Object.assign(new Error(`rejected with ${rejectWith}`), { responseCode: rejectWith }))
  },
  onData(stream, session, callback) {
    const chunks: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.on("end", () => {
      received.push({
        from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw: Buffer.concat(chunks).toString("utf8")
      })
      callback()
    })
  }
})
let smtpUrl = ""
const outboxRoot = mkdtempSync(join(tmpdir(), "tenders-outbox-"))

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address: AddressInfo | string | null = server.server.address()
  if (address === null || typeof address === "string") throw new Error("no SMTP port")
  smtpUrl = `smtp://127.0.0.1:${address.port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(outboxRoot, { recursive: true, force: true })
})
beforeEach(() => {
  received.length = 0
  rejectWith = null
})

describe("digest rendering", () => {
  it("names the watchlist and the count, singular and plural", () => {
    assert.strictEqual(digestSubject(digest), `Tenders: 2 new alerts for "Roads in Estonia"`)
    const [first] = digest.alerts
    assert.isDefined(first)
    assert.strictEqual(digestSubject({ ...digest, alerts: [first] }), `Tenders: 1 new alert for "Roads in Estonia"`)
  })

  it("escapes markup in the HTML part and lists every field", () => {
    const { html, text } = renderDigest(digest)
    assert.notInclude(html, "<script>")
    assert.include(html, escapeHtml(`Bridge <script>alert("x")</script> & tunnels`))
    for (const part of [html, text]) {
      assert.include(part, "Transport Administration")
      assert.include(part, "1250000.50 EUR")
      assert.include(part, "2026-04-15 10:00 UTC")
      assert.include(part, "https://ted.europa.eu/en/notice/-/detail/123456-2026")
    }
    assert.include(text, `Bridge <script>alert("x")</script> & tunnels`)
    assert.include(text, "Deadline within 24 hours")
  })
})

describe("makeEmailSender over SMTP", () => {
  const from = "Tenders <alerts@tenders.test>"

  it.effect("delivers one message with a text and an HTML part", () =>
    Effect.gen(function* () {
      const outcome = yield* makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot }).sendEmail(digest)
      assert.deepStrictEqual(outcome, { _tag: "Delivered" })
      assert.strictEqual(received.length, 1)
      const [message] = received
      assert.isDefined(message)
      assert.strictEqual(message.from, "alerts@tenders.test")
      assert.deepStrictEqual(message.to, ["buyer@example.test"])
      const raw = decodeQuotedPrintable(message.raw)
      assert.strictEqual(subjectOf(message.raw), `Tenders: 2 new alerts for "Roads in Estonia"`)
      assert.match(raw, /Content-Type: multipart\/alternative/u)
      assert.match(raw, /Content-Type: text\/plain; charset=utf-8/u)
      assert.match(raw, /Content-Type: text\/html; charset=utf-8/u)
      assert.include(raw, "Resurfacing of the Tallinn–Tartu road")
      assert.include(raw, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; tunnels")
      const htmlPart = raw.slice(raw.indexOf("Content-Type: text/html"))
      assert.notInclude(htmlPart, "<script>")
    })
  )

  it.effect("sends a sign-in link over the same transport", () =>
    Effect.gen(function* () {
      const outcome = yield* makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot }).sendSignIn({
        ...signIn,
        language: "ru"
      })
      assert.deepStrictEqual(outcome, { _tag: "Delivered" })
      const [message] = received
      assert.isDefined(message)
      assert.deepStrictEqual(message.to, ["buyer@example.test"])
      assert.strictEqual(subjectOf(message.raw), "Вход в Tenders")
      assert.include(partOf(message.raw, "text/plain"), signIn.url)
      assert.include(partOf(message.raw, "text/html"), "token=Zm9v_YmFy-baz&amp;lang=hy")
    })
  )

  it.effect("a 451 temporary rejection is Retry", () =>
    Effect.gen(function* () {
      rejectWith = 451
      const outcome = yield* makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot }).sendEmail(digest)
      assert.strictEqual(outcome._tag, "Retry")
      assert.strictEqual(received.length, 0)
    })
  )

  it.effect("a 550 permanent rejection is Failed, not disabling", () =>
    Effect.gen(function* () {
      rejectWith = 550
      const outcome = yield* makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot }).sendEmail(digest)
      assert.strictEqual(outcome._tag, "Failed")
      if (outcome._tag === "Failed") assert.isFalse(outcome.disable)
    })
  )

  it.effect("refuses a recipient that is not one address, and sends nothing to anyone", () =>
    Effect.gen(function* () {
      const sender = makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot })
      for (const to of refusedAddressProbes) {
        const outcome = yield* sender.sendSignIn({ ...signIn, to })
        assert.strictEqual(outcome._tag, "Failed", JSON.stringify(to))
        assert.strictEqual((yield* sender.sendEmail({ ...digest, to }))._tag, "Failed", JSON.stringify(to))
      }
      assert.strictEqual(received.length, 0)
    })
  )

  it("sends every address the address rule accepts to that one address alone, in the envelope and the header", async () => {
    const sender = makeEmailSender({ smtpUrl, from, outboxDir: outboxRoot })
    await fc.assert(
      fc.asyncProperty(fc.emailAddress({ size: "small" }), async (to) => {
        const normal = Result.getOrUndefined(parseEmailAddress(to))
        fc.pre(normal !== undefined)
        received.length = 0
        const outcome = await Effect.runPromise(sender.sendSignIn({ ...signIn, to }))
        assert.deepStrictEqual(outcome, { _tag: "Delivered" })
        assert.deepStrictEqual(
          received.map((message) => message.to),
          [[normal]]
        )
        const toHeaders = (received[0]?.raw ?? "").split("\r\n").filter((line) => /^to:/iu.test(line))
        assert.strictEqual(toHeaders.length, 1)
      }),
      { numRuns: 25 }
    )
  })

  it.effect("a refused connection is Retry", () =>
    Effect.gen(function* () {
      const closed = new SMTPServer({ authOptional: true, logger: false })
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve())))
      const address = closed.server.address()
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      assert.isTrue(address !== null && typeof address !== "string")
      const port = address !== null && typeof address !== "string" ? address.port : 0
      const outcome = yield* makeEmailSender({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from,
        outboxDir: outboxRoot
      }).sendEmail(digest)
      assert.strictEqual(outcome._tag, "Retry")
    })
  )
})

describe("makeEmailSender without SMTP", () => {
  it.effect("writes an .eml file into the outbox it creates", () =>
    Effect.gen(function* () {
      const outboxDir = join(outboxRoot, "nested", "outbox")
      const { sendEmail } = makeEmailSender({ smtpUrl: null, from: "Tenders <alerts@localhost>", outboxDir })
      assert.deepStrictEqual(yield* sendEmail(digest), { _tag: "Delivered" })
      assert.deepStrictEqual(yield* sendEmail(digest), { _tag: "Delivered" })
      const files = readdirSync(outboxDir)
      assert.strictEqual(files.length, 2)
      for (const file of files) {
        assert.match(file, /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{12}\.eml$/u)
        const raw = readFileSync(join(outboxDir, file), "utf8")
        assert.include(raw, "\r\n")
        assert.strictEqual(subjectOf(raw), `Tenders: 2 new alerts for "Roads in Estonia"`)
        assert.include(raw, "To: buyer@example.test")
        const html = decodeQuotedPrintable(raw.slice(raw.indexOf("Content-Type: text/html")))
        assert.include(html, "&lt;script&gt;")
        assert.notInclude(html, "<script>")
      }
    })
  )
})
