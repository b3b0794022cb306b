import { Notifier } from "@tenders/core"
import { Config, ConfigProvider, Duration, Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { makeEmailSender } from "./EmailNotifier.ts"
import { makeWebhookSender } from "./WebhookNotifier.ts"

const optionalString = (name: string) =>
  Config.option(Config.String(name)).pipe(
    Effect.map(Option.filter((value: string) => value.trim() !== "")),
    Effect.map(Option.getOrNull)
  )

/** `TENDERS_WEBHOOK_TIMEOUT`: how long one webhook attempt may take, from 1 ms to 10 seconds (the default). */
export const webhookTimeout = Config.Duration("TENDERS_WEBHOOK_TIMEOUT").pipe(
  Config.withDefault(Duration.seconds(10)),
  Config.mapEffect((timeout) =>
    Duration.isGreaterThan(timeout, Duration.zero) && Duration.isLessThanOrEqualTo(timeout, Duration.seconds(10))
      ? Effect.succeed(timeout)
      : Effect.fail(
          new Config.ConfigError(
            new ConfigProvider.SourceError({
              message: "TENDERS_WEBHOOK_TIMEOUT must be more than 0 and at most 10 seconds"
            })
          )
        )
  )
)

/**
 * The `Notifier` from the environment: `SMTP_URL` (else `.eml` files in `<data dir>/outbox`, the data dir given
 * or `TENDERS_DATA_DIR`), `TENDERS_MAIL_FROM`, `TENDERS_WEBHOOK_ALLOW_HOSTS`, `TENDERS_WEBHOOK_CA_FILE`,
 * `TENDERS_WEBHOOK_TIMEOUT` (10 seconds at most).
 */
export const notifierLayer = (options: { readonly dataDir?: string | undefined } = {}) =>
  Layer.effect(
    Notifier,
    Effect.gen(function* () {
      const smtpUrl = yield* optionalString("SMTP_URL")
      const from = (yield* optionalString("TENDERS_MAIL_FROM")) ?? "Tenders <alerts@localhost>"
      const dataDir = options.dataDir ?? (yield* optionalString("TENDERS_DATA_DIR")) ?? "./.data"
      const allowHosts = ((yield* optionalString("TENDERS_WEBHOOK_ALLOW_HOSTS")) ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "")
      const caFile = yield* optionalString("TENDERS_WEBHOOK_CA_FILE")
      const timeout = yield* webhookTimeout
      const sendEmail = makeEmailSender({ smtpUrl, from, outboxDir: join(dataDir, "outbox") })
      const sendWebhook = yield* Effect.try({
        try: () => makeWebhookSender({ allowHosts, caFile, timeoutMs: Duration.toMillis(timeout) }),
        catch: (cause) =>
          new Config.ConfigError(
            new ConfigProvider.SourceError({ message: `cannot read TENDERS_WEBHOOK_CA_FILE: ${String(cause)}`, cause })
          )
      })
      return Notifier.of({ sendEmail, sendWebhook })
    })
  )

/** The `Notifier` configured from the environment alone. */
export const NotifierLive = notifierLayer()
