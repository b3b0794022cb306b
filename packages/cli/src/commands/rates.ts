import { parseRatesDocument } from "@tenders/adapters-sources"
import {
  importRates,
  isQuarter,
  quarterAt,
  quarterOf,
  type RatePublication,
  type RatePublisher,
  Rates,
  type RatesImport,
  missingCurrencies,
  staleFigures
} from "@tenders/core"
import type { Command } from "commander"
import { DateTime, Effect, Result } from "effect"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { ratesFeed } from "../RatesFeed.ts"
import { type GlobalOptions, messageOf, runCommand, UsageError } from "../Runtime.ts"
import { table } from "../Table.ts"

/** The publications in saved copies of the publishers' documents, each publisher told by the file's content. */
const readSavedCopies = (files: ReadonlyArray<string>) =>
  Effect.forEach(files, (file) =>
    Effect.gen(function* () {
      const bytes = yield* Effect.try({
        try: () => readFileSync(file),
        catch: (cause) => new UsageError(`${file}: cannot read: ${messageOf(cause)}`)
      })
      const read = parseRatesDocument(bytes)
      if (Result.isFailure(read)) return yield* Effect.fail(new UsageError(`${file}: ${read.failure}`))
      return { file: resolve(file), ...read.success }
    })
  ).pipe(
    Effect.map((documents) => {
      const origins: Partial<Record<RatePublisher, string>> = {}
      for (const d of documents) origins[d.publisher] = d.file
      return { publications: documents.flatMap((d): ReadonlyArray<RatePublication> => d.publications), origins }
    })
  )

/** The quarter a set of saved copies is for, without `--quarter`: that of their newest publication. */
const quarterOfNewest = (publications: ReadonlyArray<RatePublication>): string =>
  quarterOf(publications.reduce((day, p) => (p.publishedOn > day ? p.publishedOn : day), ""))

const printImport = (result: RatesImport) => {
  process.stdout.write(`reference rates of ${result.quarter}: ${result.figures.length} figures saved\n`)
  if (result.missing.length > 0) process.stdout.write(`missing: ${result.missing.join(", ")}\n`)
  for (const failure of result.failures) process.stdout.write(`failed: ${failure}\n`)
}

const quarterOption = (value: string | undefined): string | undefined => {
  if (value !== undefined && !isQuarter(value))
    throw new UsageError(`--quarter: "${value}" is not a quarter like 2026-Q4`)
  return value
}

/**
 * `tenders rates [--json]` prints the table in use (each currency's figure per EUR, publisher, publication day,
 * origin, and whether it is the fallback table); `tenders rates import` reads the publishers' publications of a
 * quarter, from the network or from saved copies (`--from`).
 */
export const registerRates = (program: Command, globals: () => GlobalOptions) => {
  const rates = program
    .command("rates")
    .description("print the reference rates in use (per EUR, publisher, date, origin; whether it is the fallback)")
    .option("--json", "print JSON")
    .action((options: { readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const inUse = yield* (yield* Rates).current
          if (options.json === true) return process.stdout.write(`${JSON.stringify(inUse)}\n`)
          const stale = new Set(staleFigures(inUse).map((f) => f.currency))
          const from =
            inUse.fallback === null
              ? "imported from the publishers"
              : `${inUse.fallback}: a fallback, no rates imported`
          process.stdout.write(`reference rates of ${inUse.quarter} (${from})\n\n`)
          process.stdout.write(
            `${table(
              ["CURRENCY", "PER EUR", "PUBLISHED", "PUBLISHER", "ORIGIN", "NOTE"],
              inUse.figures.map((f) => [
                f.currency,
                f.perEur,
                f.publishedOn,
                f.publisher,
                f.origin,
                [stale.has(f.currency) ? `older than ${inUse.quarter}` : "", f.official ? "" : "not official"]
                  .filter((n) => n !== "")
                  .join("; ")
              ]),
              { maxWidths: [8, 14, 10, 40, 70, 40] }
            )}\n`
          )
          const missing = missingCurrencies(inUse.figures)
          if (missing.length > 0) process.stdout.write(`\nno figure (budgets in them skipped): ${missing.join(", ")}\n`)
        })
      )
    )
  rates
    .command("import")
    .description(
      "import a quarter's reference rates from the ECB, the Bank of Russia and the Central Bank of Armenia (the " +
        "publication of the quarter's first business day); --from reads saved copies instead, each publisher told " +
        "by the file's content"
    )
    .option("--quarter <quarter>", "the quarter, like 2026-Q4 (default: the current one, or the saved copies' newest)")
    .option(
      "--from <files...>",
      "saved copies of the publishers' documents (eurofxref XML, XML_daily, ExchangeRatesByDate)"
    )
    .action((options: { readonly quarter?: string; readonly from?: ReadonlyArray<string> }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const asked = quarterOption(options.quarter)
          if (options.from !== undefined) {
            const fetched = yield* readSavedCopies(options.from)
            const result = yield* importRates(asked ?? quarterOfNewest(fetched.publications), fetched)
            return printImport(result)
          }
          const quarter = asked ?? quarterAt(yield* DateTime.now)
          const fetched = yield* (yield* ratesFeed).fetchQuarter(quarter)
          const result = yield* importRates(quarter, fetched)
          printImport(result)
          if (result.failures.length > 0) process.exitCode = 1
        })
      )
    )
}
