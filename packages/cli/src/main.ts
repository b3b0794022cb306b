import { defaultDataDir } from "@tenders/core"
import { Command, CommanderError, Option } from "commander"
import { registerAccounts } from "./commands/accounts.ts"
import { registerAlerts } from "./commands/alerts.ts"
import { registerClassifications } from "./commands/classifications.ts"
import { registerIngest } from "./commands/ingest.ts"
import { registerKeys } from "./commands/keys.ts"
import { registerMcp } from "./commands/mcp.ts"
import { registerRates } from "./commands/rates.ts"
import { registerSearch } from "./commands/search.ts"
import { registerServe } from "./commands/serve.ts"
import { registerSources } from "./commands/sources.ts"
import { registerStore } from "./commands/store.ts"
import { registerWatchlists } from "./commands/watchlists.ts"
import type { GlobalOptions } from "./Runtime.ts"

/** Where the program writes its help, usage errors and failure line. */
export interface ProgramOutput {
  readonly writeOut: (text: string) => void
  readonly writeErr: (text: string) => void
}

const processOutput: ProgramOutput = {
  writeOut: (text) => void process.stdout.write(text),
  writeErr: (text) => void process.stderr.write(text)
}

/** The `tenders` program, built fresh: `--help` and usage errors throw a `CommanderError` instead of exiting. */
export const makeProgram = (output: ProgramOutput = processOutput): Command => {
  // Output and exit settings first: subcommands copy them when they are created.
  const program = new Command("tenders")
    .description("Tenders: public procurement notices from TED, gnumner and zakupki.gov.ru in one searchable store")
    .configureOutput({ writeOut: output.writeOut, writeErr: output.writeErr })
    .exitOverride()
    .addOption(
      new Option("--data-dir <dir>", "data directory of the embedded store")
        .env("TENDERS_DATA_DIR")
        .default(defaultDataDir)
    )
    .addOption(
      new Option("--database-url <url>", "PostgreSQL URL; when set, the embedded store is not used").env("DATABASE_URL")
    )
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()
  for (const register of [
    registerServe,
    registerIngest,
    registerSearch,
    registerKeys,
    registerAccounts,
    registerSources,
    registerWatchlists,
    registerAlerts,
    registerMcp,
    registerStore,
    registerClassifications,
    registerRates
  ])
    register(program, globals)
  return program
}

/** Runs `tenders` on `args` (the user's arguments) and resolves to its exit code. */
export const runTenders = async (
  args: ReadonlyArray<string>,
  output: ProgramOutput = processOutput
): Promise<number> => {
  try {
    await makeProgram(output).parseAsync(args, { from: "user" })
    return typeof process.exitCode === "number" ? process.exitCode : 0
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode
    output.writeErr(`tenders: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

if (import.meta.main) process.exitCode = await runTenders(process.argv.slice(2))
