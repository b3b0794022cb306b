import { assert, describe, it } from "@effect/vitest"
import { Notifier, WebhookAllowHosts } from "@tenders/core"
import { ConfigProvider, Effect, Layer } from "effect"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NotifierLive, notifierLayer } from "../src/index.ts"
import { digest } from "./fixtures.ts"

const notifierFrom = (env: Record<string, string>) =>
  Effect.gen(function* () {
    return yield* Notifier
  }).pipe(Effect.provide(NotifierLive.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))))

describe("NotifierLive", () => {
  it.effect("without SMTP_URL writes digests into <TENDERS_DATA_DIR>/outbox", () =>
    Effect.gen(function* () {
      const dataDir = mkdtempSync(join(tmpdir(), "tenders-live-"))
      const notifier = yield* notifierFrom({ TENDERS_DATA_DIR: dataDir })
      assert.deepStrictEqual(yield* notifier.sendEmail(digest), { _tag: "Delivered" })
      assert.strictEqual(readdirSync(join(dataDir, "outbox")).length, 1)
      rmSync(dataDir, { recursive: true, force: true })
    })
  )

  it.effect("refuses private webhook targets unless allowed, and fails on an unreadable CA file", () =>
    Effect.gen(function* () {
      const notifier = yield* notifierFrom({ TENDERS_WEBHOOK_ALLOW_HOSTS: " 127.0.0.1:1 , " })
      const outcome = yield* notifier.sendWebhook({
        url: "https://10.0.0.1/",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        webhookId: "msg_1",
        timestamp: 1_700_000_000,
        body: "{}"
      })
      assert.strictEqual(outcome._tag, "Failed")
      const error = yield* notifierFrom({ TENDERS_WEBHOOK_CA_FILE: "/nonexistent/ca.pem" }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ConfigError")
    })
  )

  it.live("takes the allow-list from the WebhookAllowHosts in context, not from the environment", () =>
    Effect.gen(function* () {
      const call = {
        url: "https://127.0.0.1:1/",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        webhookId: "msg_1",
        timestamp: 1_700_000_000,
        body: "{}"
      }
      const env = ConfigProvider.layer(ConfigProvider.fromEnvRecord({ TENDERS_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:1" }))
      const sendWith = (allowHosts: ReadonlyArray<string>) =>
        Effect.gen(function* () {
          return yield* (yield* Notifier).sendWebhook(call)
        }).pipe(
          Effect.provide(
            notifierLayer().pipe(Layer.provide(Layer.succeed(WebhookAllowHosts, allowHosts)), Layer.provide(env))
          )
        )
      const refused = yield* sendWith([])
      assert.strictEqual(refused._tag, "Failed")
      if (refused._tag === "Failed") assert.match(refused.reason, /^refused webhook URL/u)
      // Allowed: the address policy is skipped and the connection to a closed port is tried.
      const tried = yield* sendWith(["127.0.0.1:1"])
      assert.strictEqual(tried._tag, "Retry")
    })
  )

  it.effect("fails to start on an allow-list entry that is not host:port", () =>
    Effect.gen(function* () {
      const error = yield* notifierFrom({ TENDERS_WEBHOOK_ALLOW_HOSTS: "hooks.internal" }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ConfigError")
      assert.match(error.message, /not host:port/u)
    })
  )
})
