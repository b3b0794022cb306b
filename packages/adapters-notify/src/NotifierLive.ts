import {
  Notifier,
  defaultDataDir,
  optionalSetting,
  WebhookAllowHosts,
  webhookAllowHostsLayer,
  webhookTimeoutConfig
} from "@tenders/core"
import { Config, ConfigProvider, Effect, Layer } from "effect"
import { join } from "node:path"
import { makeEmailSender } from "./EmailNotifier.ts"
import { makeWebhookSender } from "./WebhookNotifier.ts"

/**
 * The `Notifier` from the environment: `SMTP_URL` for digests and sign-in links (else `.eml` files in
 * `<data dir>/outbox`, the data dir given or `TENDERS_DATA_DIR`), `TENDERS_MAIL_FROM`, `TENDERS_WEBHOOK_CA_FILE`,
 * `TENDERS_WEBHOOK_TIMEOUT`; the allow-list is the `WebhookAllowHosts` in context (core's `webhookAllowHostsLayer`
 * parses `TENDERS_WEBHOOK_ALLOW_HOSTS`).
 */
export const notifierLayer = (options: { readonly dataDir?: string | undefined } = {}) =>
  Layer.effect(
    Notifier,
    Effect.gen(function* () {
      const smtpUrl = (yield* optionalSetting("SMTP_URL")) ?? null
      const from = (yield* optionalSetting("TENDERS_MAIL_FROM")) ?? "Tenders <alerts@localhost>"
      const dataDir = options.dataDir ?? (yield* optionalSetting("TENDERS_DATA_DIR")) ?? defaultDataDir
      const allowHosts = yield* WebhookAllowHosts
      const caFile = (yield* optionalSetting("TENDERS_WEBHOOK_CA_FILE")) ?? null
      const timeout = yield* webhookTimeoutConfig
      const email = makeEmailSender({ smtpUrl, from, outboxDir: join(dataDir, "outbox") })
      const sendWebhook = yield* Effect.try({
        try: () => makeWebhookSender({ allowHosts, caFile, timeout }),
        catch: (cause) =>
          new Config.ConfigError(
            new ConfigProvider.SourceError({ message: `cannot read TENDERS_WEBHOOK_CA_FILE: ${String(cause)}`, cause })
          )
      })
      return Notifier.of({ ...email, sendWebhook })
    })
  )

/** The `Notifier` configured from the environment alone (`WebhookAllowHosts` included). */
export const NotifierLive = notifierLayer().pipe(Layer.provide(webhookAllowHostsLayer))
