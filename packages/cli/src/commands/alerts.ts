import { AccountStore, DeliveryStore, formatUtc, listAlerts, accountByEmail } from "@tenders/core"
import type { Command } from "commander"
import { DateTime, Effect } from "effect"
import { type GlobalOptions, runCommand, UsageError } from "../Runtime.ts"
import { table } from "../Table.ts"

/** `tenders alerts`, `tenders deliveries [retry <id>]` and `tenders webhooks secret`. */
export const registerAlerts = (program: Command, globals: () => GlobalOptions) => {
  program
    .command("alerts")
    .description("an account's open alerts, nearest deadline first (as GET /v1/alerts)")
    .requiredOption("--email <email>", "account e-mail")
    .option("--json", "print the API's JSON")
    .action((options: { readonly email: string; readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const response = yield* listAlerts((yield* accountByEmail(options.email)).id)
          if (options.json === true) return void process.stdout.write(`${JSON.stringify(response)}\n`)
          process.stdout.write(
            response.alerts.length === 0
              ? `${response.hint ?? "No alerts."}\n`
              : `${table(
                  ["REASON", "WATCHLIST", "TENDER", "TITLE", "DEADLINE (UTC)"],
                  response.alerts.map((a) => [
                    a.reason,
                    a.watchlistName,
                    a.tender.id,
                    a.tender.title,
                    a.tender.deadline ?? "-"
                  ]),
                  { maxWidths: [13, 24, 36, 60, 20] }
                )}\n`
          )
        })
      )
    )
  const deliveries = program
    .command("deliveries")
    .description("the alert delivery outbox: pending, delivered and failed e-mails and webhooks")
    .option("--json", "print as JSON")
    .action((options: { readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const list = (yield* (yield* DeliveryStore).list(100)).map((d) => ({
            ...d,
            nextAttemptAt: d.nextAttemptAt === null ? null : formatUtc(d.nextAttemptAt),
            createdAt: formatUtc(d.createdAt)
          }))
          if (options.json === true) return void process.stdout.write(`${JSON.stringify(list)}\n`)
          process.stdout.write(
            list.length === 0
              ? "No deliveries.\n"
              : `${table(
                  ["ID", "CHANNEL", "TARGET", "STATUS", "ATTEMPTS", "NEXT ATTEMPT", "LAST ERROR"],
                  list.map((d) => [
                    String(d.id),
                    d.channel,
                    d.target,
                    d.status,
                    String(d.attempts),
                    d.nextAttemptAt ?? "-",
                    d.lastError ?? "-"
                  ]),
                  { maxWidths: [8, 8, 40, 10, 8, 20, 60] }
                )}\n`
          )
        })
      )
    )
  deliveries
    .command("retry")
    .description("queue a failed delivery again, now")
    .argument("<id>", "delivery id from tenders deliveries")
    .action((id: string) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const n = Number(id)
          const ok = Number.isSafeInteger(n) && (yield* (yield* DeliveryStore).retry(n, yield* DateTime.now))
          if (!ok) return yield* Effect.fail(new UsageError(`no failed delivery with id ${id}`))
          process.stdout.write(`Delivery ${id} queued again.\n`)
        })
      )
    )
  program
    .command("webhooks")
    .description("webhook settings of an account")
    .command("secret")
    .description("show the account's webhook signing secret (Standard Webhooks, whsec_...), creating it if needed")
    .requiredOption("--email <email>", "account e-mail")
    .option("--rotate", "replace the secret (receivers must switch to the new one)")
    .action((options: { readonly email: string; readonly rotate?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const account = yield* accountByEmail(options.email)
          process.stdout.write(`${yield* (yield* AccountStore).webhookSecret(account.id, options.rotate === true)}\n`)
        })
      )
    )
}
