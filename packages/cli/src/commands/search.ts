import { searchTenders, SearchRequest, type TenderCard } from "@tenders/core"
import type { Command } from "commander"
import { Effect, Schema } from "effect"
import { type GlobalOptions, runCommand, usage, UsageError } from "../Runtime.ts"
import { table } from "../Table.ts"

/** The filter flags shared by `search` and `watchlists create`. */
export interface SearchFlags {
  readonly country: Array<string>
  readonly cpv: Array<string>
  readonly minBudget?: string
  readonly maxBudget?: string
  readonly currency?: string
  readonly deadlineAfter?: string
  readonly limit?: string
}

interface SearchOptions extends SearchFlags {
  readonly json?: boolean
}

const collect = (value: string, previous: Array<string>) => [...previous, value]

const number = (flag: string, raw: string | undefined) => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === "" || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number, got "${raw}"`)
  return n
}

/** Builds the same filters the REST API takes, so the CLI validates exactly like the API. */
export const toFilters = (q: string, o: SearchFlags) => ({
  q,
  ...(o.country.length > 0 ? { countries: o.country } : {}),
  ...(o.cpv.length > 0 ? { cpv: o.cpv } : {}),
  ...(o.minBudget === undefined ? {} : { minBudget: number("--min-budget", o.minBudget) }),
  ...(o.maxBudget === undefined ? {} : { maxBudget: number("--max-budget", o.maxBudget) }),
  ...(o.currency === undefined ? {} : { budgetCurrency: o.currency.toUpperCase() }),
  ...(o.deadlineAfter === undefined ? {} : { deadlineAfter: o.deadlineAfter }),
  ...(o.limit === undefined ? {} : { limit: number("--limit", o.limit) })
})

const render = (cards: ReadonlyArray<TenderCard>) =>
  table(
    ["ID", "TITLE", "BUYER", "CTRY", "BUDGET", "DEADLINE (UTC)"],
    cards.map((c) => [
      c.id,
      c.title,
      c.buyer ?? "-",
      c.country ?? "-",
      c.budget === null ? "-" : `${c.budget} ${c.currency ?? ""}`.trim(),
      c.deadline === null ? "-" : c.deadline.replace("T", " ").replace(/:\d{2}(\.\d+)?Z$/u, "")
    ]),
    { maxWidths: [40, 60, 36, 4, 20, 16] }
  )

/** Adds the structured-filter flags to a command. */
export const searchFlags = (command: Command): Command =>
  command
    .option("--country <XX>", "ISO 3166-1 alpha-2 country (repeatable)", collect, [])
    .option("--cpv <prefix>", "CPV code or prefix, e.g. 45 or 45233140-2 (repeatable)", collect, [])
    .option("--min-budget <n>", "minimum estimated budget")
    .option("--max-budget <n>", "maximum estimated budget")
    .option("--currency <C>", "compare budgets in this currency (EUR, USD, AMD, RUB, ...)")
    .option("--deadline-after <date>", "only deadlines after this date or date-time")

/** `tenders search`: the search use case on the local store, as an operator (every filter allowed). */
export const registerSearch = (program: Command, globals: () => GlobalOptions) =>
  searchFlags(
    program
      .command("search")
      .description("search open tenders in the local store")
      .argument(
        "<q>",
        'free text in any language: English, Russian, Armenian, other EU languages ("" for filters only)'
      )
  )
    .option("--limit <n>", "number of results, 1 to 20 (default 10)")
    .option("--json", "print the API's JSON response")
    .action((q: string, options: SearchOptions) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const request = yield* usage(() => toFilters(q, options))
          const decoded = yield* Schema.decodeUnknownEffect(SearchRequest)(request, { errors: "all" }).pipe(
            Effect.mapError((e) => new UsageError(e.message.split("\n").join(" ")))
          )
          const response = yield* searchTenders(decoded, "business")
          if (options.json === true) {
            process.stdout.write(`${JSON.stringify(response, null, 2)}\n`)
            return
          }
          process.stdout.write(response.results.length > 0 ? `${render(response.results)}\n` : "No results.\n")
          if (response.hint !== undefined) process.stdout.write(`\n${response.hint}\n`)
        })
      )
    )
