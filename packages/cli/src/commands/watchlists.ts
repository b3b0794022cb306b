import { createWatchlist, formatUtc, WatchlistId, WatchlistInput, WatchlistStore, accountByEmail } from "@tenders/core"
import type { Command } from "commander"
import { Effect, Schema } from "effect"
import { type GlobalOptions, runCommand, usage, UsageError } from "../Runtime.ts"
import { table } from "../Table.ts"
import { searchFlags, type SearchFlags, toFilters } from "./search.ts"

interface CreateOptions extends SearchFlags {
  readonly email: string
  readonly name: string
  readonly q?: string
  readonly emailAlerts?: boolean
  readonly webhook?: string
  readonly json?: boolean
}

/** `tenders watchlists list|create|delete`: an account's watchlists, with the same rules as the API. */
export const registerWatchlists = (program: Command, globals: () => GlobalOptions) => {
  const watchlists = program.command("watchlists").description("list, create and delete an account's watchlists")
  watchlists
    .command("list")
    .description("list an account's watchlists")
    .requiredOption("--email <email>", "account e-mail")
    .option("--json", "print as JSON")
    .action((options: { readonly email: string; readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const account = yield* accountByEmail(options.email)
          const list = (yield* (yield* WatchlistStore).list(account.id)).map((w) => ({
            ...w,
            createdAt: formatUtc(w.createdAt)
          }))
          if (options.json === true) {
            process.stdout.write(`${JSON.stringify(list)}\n`)
            return
          }
          process.stdout.write(
            list.length === 0
              ? "No watchlists.\n"
              : `${table(
                  ["ID", "NAME", "FILTERS", "E-MAIL", "WEBHOOK", "CREATED"],
                  list.map((w) => [
                    w.id,
                    w.name,
                    JSON.stringify(w.filters),
                    w.channels?.email === false ? "no" : "yes",
                    w.channels?.webhook ?? "-",
                    w.createdAt
                  ]),
                  { maxWidths: [36, 30, 60, 6, 40, 20] }
                )}\n`
          )
        })
      )
    )
  searchFlags(
    watchlists
      .command("create")
      .description("create a watchlist for an account (the plan's rules apply, as on the API)")
      .requiredOption("--email <email>", "account e-mail")
      .requiredOption("--name <name>", "watchlist name (1 to 100 characters)")
      .option("--q <words>", "free text in any language: English, Russian, Armenian, other EU languages")
  )
    .option("--no-email-alerts", "do not send alerts by e-mail")
    .option("--webhook <url>", "HTTPS endpoint for signed JSON alerts (paid plans)")
    .option("--json", "print the API's JSON answer")
    .action((options: CreateOptions) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const account = yield* accountByEmail(options.email)
          const filters = yield* usage(() => toFilters(options.q ?? "", options))
          const { q: _q, ...rest } = filters
          const body = {
            name: options.name,
            filters: options.q === undefined ? rest : { q: options.q, ...rest },
            channels: {
              email: options.emailAlerts !== false,
              ...(options.webhook === undefined ? {} : { webhook: options.webhook })
            }
          }
          const input = yield* Schema.decodeUnknownEffect(WatchlistInput)(body, {
            errors: "all",
            onExcessProperty: "error"
          }).pipe(Effect.mapError((e) => new UsageError(e.message.split("\n").join(" "))))
          const created = yield* createWatchlist(input, account)
          const hint = created.hint === undefined ? "" : ` ${created.hint}`
          process.stdout.write(
            options.json === true
              ? `${JSON.stringify(created)}\n`
              : `Watchlist ${created.watchlistId}: ${created.estimatedMatches} open tenders match now.${hint}\n`
          )
        })
      )
    )
  watchlists
    .command("delete")
    .description("delete one of an account's watchlists")
    .requiredOption("--email <email>", "account e-mail")
    .argument("<watchlistId>", "the id shown by watchlists list")
    .action((watchlistId: string, options: { readonly email: string }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const account = yield* accountByEmail(options.email)
          const id = Schema.decodeUnknownOption(WatchlistId)(watchlistId)
          if (id._tag === "None" || !(yield* (yield* WatchlistStore).remove(account.id, id.value))) {
            return yield* Effect.fail(new UsageError(`${options.email} has no watchlist ${watchlistId}`))
          }
          process.stdout.write(`Deleted watchlist ${watchlistId}.\n`)
        })
      )
    )
}
