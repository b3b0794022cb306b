import { assert, describe, layer } from "@effect/vitest"
import { makeWebhookSender } from "@tenders/adapters-notify"
import {
  AccountStore,
  createWatchlist,
  deliverDue,
  DeliveryStore,
  evaluateAlerts,
  ingestRecords,
  Notifier,
  Rates,
  WebhookAllowHosts
} from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { DateTime, Duration, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { loopbackCertificate } from "../../adapters-notify/test/loopbackCertificate.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { afterAll } from "vitest"
import { backends } from "../../store-postgres/test/backends.ts"

/**
 * The outbox against a webhook receiver that is down for hours of simulated time: the real store, the real
 * Standard Webhooks sender over HTTPS on loopback, and the TestClock driving the backoff.
 */
const dir = mkdtempSync(join(tmpdir(), "tdo-"))
const certificate = loopbackCertificate(dir)

interface Hit {
  readonly path: string
  readonly id: string
  readonly timestamp: string
  readonly signature: string
  readonly body: string
  readonly answered: "dropped" | "204"
}

let down = true
const hits: Array<Hit> = []
const receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
  request.on("end", () => {
    const header = (name: string) => String(request.headers[name] ?? "")
    hits.push({
      path: request.url ?? "",
      id: header("webhook-id"),
      timestamp: header("webhook-timestamp"),
      signature: header("webhook-signature"),
      body,
      answered: down ? "dropped" : "204"
    })
    // Down: the connection is cut without an answer, as when the receiver's process is gone.
    if (down) request.socket.destroy()
    else response.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", () => resolve()))
const port = (receiver.address() as AddressInfo).port
afterAll(async () => {
  receiver.closeAllConnections()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

const notifier = Layer.succeed(
  Notifier,
  Notifier.of({
    sendEmail: () => Effect.succeed({ _tag: "Delivered" }),
    sendWebhook: makeWebhookSender({ allowHosts: [`127.0.0.1:${port}`], caFile: certificate.caFile }),
    sendSignIn: () => Effect.succeed({ _tag: "Delivered" })
  })
)

/** With the receiver down and the simulated clock at now: a Pro account whose watchlist `q` posts to `path`. */
const subscribe = (email: string, q: string, path: string) =>
  Effect.gen(function* () {
    down = true
    hits.length = 0
    yield* TestClock.setTime(Date.now())
    const owner = yield* (yield* AccountStore).saveAccount({ email, plan: "pro", monthlyLimit: null })
    yield* createWatchlist(
      { name: q, filters: { q }, channels: { email: false, webhook: `https://127.0.0.1:${port}${path}` } },
      owner
    )
    yield* TestClock.adjust(Duration.seconds(1))
    return owner
  })

for (const [name, makeLayer] of backends()) {
  describe(`webhook outbox on ${name}`, () => {
    layer(
      Layer.mergeAll(makeLayer(), Rates.bundled, notifier, Layer.succeed(WebhookAllowHosts, [`127.0.0.1:${port}`])),
      { timeout: 120_000, excludeTestServices: true }
    )((it) => {
      it.effect(
        "a receiver down for 9 simulated hours gets every alert once back, each webhook-id once, signed per attempt",
        () =>
          Effect.gen(function* () {
            const owner = yield* subscribe("receiver@example.com", "ferry", "/tenders")
            const ids = ["ted-770001-2026", "ted-770002-2026", "ted-770003-2026"]
            yield* ingestRecords(
              ids.map((id, i) =>
                makeRecord({ id, title: `Ferry terminal works, phase ${i + 1}`, deadline: isoFromNow(30 + i) })
              )
            )
            assert.strictEqual(yield* evaluateAlerts(), 3)

            const start = DateTime.toEpochMillis(yield* DateTime.now)
            const attemptTimes: Array<number> = []
            const pass = Effect.gen(function* () {
              const now = DateTime.toEpochMillis(yield* DateTime.now)
              const before = hits.length
              yield* deliverDue()
              for (let i = before; i < hits.length; i++) attemptTimes.push(now)
              yield* TestClock.adjust(Duration.minutes(1))
            })
            // Nine hours down: with a pass a minute, the backoff (5 s, 5 min, 30 min, 2 h, 5 h) tries each delivery at
            // about 0, 1 min, 6 min, 36 min, 2 h 36 and 7 h 36; the next try is due 10 hours later.
            while (DateTime.toEpochMillis(yield* DateTime.now) - start < Duration.toMillis(Duration.hours(9)))
              yield* pass
            const dropped = hits.filter((h) => h.answered === "dropped")
            assert.strictEqual(dropped.length, 3 * 6)
            const pending = (yield* (yield* DeliveryStore).list(10)).filter((d) => d.channel === "webhook")
            assert.deepStrictEqual(
              pending.map((d) => [d.status, d.attempts]),
              [
                ["pending", 6],
                ["pending", 6],
                ["pending", 6]
              ]
            )
            assert.match(pending[0]?.lastError ?? "", /webhook POST failed/u)

            down = false
            for (let i = 0; i < 24 * 60 && hits.filter((h) => h.answered === "204").length < 3; i++) yield* pass
            const delivered = hits.filter((h) => h.answered === "204")
            // Each webhook-id reached the receiver once, and it is the id every failed attempt carried.
            assert.strictEqual(delivered.length, 3)
            assert.strictEqual(new Set(delivered.map((h) => h.id)).size, 3)
            assert.sameMembers(
              [...new Set(dropped.map((h) => h.id))],
              delivered.map((h) => h.id)
            )
            const tenders = delivered.map(
              (h) => (JSON.parse(h.body) as { data: { tender: { id: string } } }).data.tender.id
            )
            assert.sameMembers(tenders, ids)
            // Every attempt is signed with its own time, so a receiver's 5-minute tolerance accepts the late ones.
            const secret = yield* (yield* AccountStore).webhookSecret(owner.id, false)
            hits.forEach((hit, i) => {
              assert.strictEqual(Number(hit.timestamp) * 1000, Math.floor((attemptTimes[i] ?? 0) / 1000) * 1000)
              assert.strictEqual(
                new Webhook(secret).sign(hit.id, new Date(Number(hit.timestamp) * 1000), hit.body),
                hit.signature
              )
            })
            assert.isAbove(Number(delivered[0]?.timestamp) - Number(dropped[0]?.timestamp), 9 * 3600 - 60)
            const after = (yield* (yield* DeliveryStore).list(10)).filter((d) => d.channel === "webhook")
            assert.deepStrictEqual(
              after.map((d) => [d.status, d.attempts]),
              [
                ["delivered", 7],
                ["delivered", 7],
                ["delivered", 7]
              ]
            )
            // Nothing is sent again afterwards.
            for (let i = 0; i < 60; i++) yield* pass
            assert.strictEqual(hits.filter((h) => h.answered === "204").length, 3)
          }).pipe(Effect.provide(TestClock.layer()))
      )

      it.effect(
        "a receiver down past the 27-hour retry window: the delivery fails with its reason and `retry` sends it",
        () =>
          Effect.gen(function* () {
            yield* subscribe("gone@example.com", "dredging", "/dredging")
            yield* ingestRecords([
              makeRecord({ id: "ted-770101-2026", title: "Harbour dredging", deadline: isoFromNow(40) })
            ])
            assert.strictEqual(yield* evaluateAlerts(), 1)
            const deliveries = yield* DeliveryStore
            for (let i = 0; i < 30 * 12; i++) {
              yield* deliverDue()
              yield* TestClock.adjust(Duration.minutes(5))
            }
            const mine = () => hits.filter((h) => h.path === "/dredging")
            const [failed] = yield* deliveries.list(1)
            assert.deepStrictEqual([failed?.status, failed?.attempts], ["failed", 8])
            assert.match(failed?.lastError ?? "", /^gave up after 8 attempts: webhook POST failed/u)
            assert.strictEqual(new Set(mine().map((h) => h.id)).size, 1)
            down = false
            assert.isTrue(yield* deliveries.retry(failed?.id ?? 0, yield* DateTime.now))
            yield* deliverDue()
            assert.deepStrictEqual(
              mine().map((h) => h.answered),
              [...Array.from({ length: 8 }, () => "dropped"), "204"]
            )
            assert.strictEqual(new Set(mine().map((h) => h.id)).size, 1)
            assert.strictEqual((yield* deliveries.list(1))[0]?.status, "delivered")
          }).pipe(Effect.provide(TestClock.layer()))
      )
    })
  })
}
