import { Command, CommanderError, Option } from "commander"
import { registerAccounts } from "./commands/accounts.ts"
import { registerAlerts } from "./commands/alerts.ts"
import { registerIngest } from "./commands/ingest.ts"
import { registerKeys } from "./commands/keys.ts"
import { registerMcp } from "./commands/mcp.ts"
import { registerSearch } from "./commands/search.ts"
import { registerServe } from "./commands/serve.ts"
import { registerSources } from "./commands/sources.ts"
import { registerWatchlists } from "./commands/watchlists.ts"
import type { GlobalOptions } from "./Runtime.ts"

const program = new Command("tenders")
  .description("Tenders: public procurement notices from TED, gnumner and zakupki.gov.ru in one searchable store")
  .addOption(
    new Option("--data-dir <dir>", "data directory of the embedded store").env("TENDERS_DATA_DIR").default("./.data")
  )
  .addOption(
    new Option("--database-url <url>", "PostgreSQL URL; when set, the embedded store is not used").env("DATABASE_URL")
  )
  .exitOverride()

const globals = (): GlobalOptions => program.opts<GlobalOptions>()

registerServe(program, globals)
registerIngest(program, globals)
registerSearch(program, globals)
registerKeys(program, globals)
registerAccounts(program, globals)
registerSources(program, globals)
registerWatchlists(program, globals)
registerAlerts(program, globals)
registerMcp(program, globals)

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode
  } else {
    process.stderr.write(`tenders: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}
