import { backupEmbedded, restoreEmbedded } from "@tenders/store-postgres"
import type { Command } from "commander"
import { Cause, Effect, Exit } from "effect"
import { type GlobalOptions, messageOf } from "../Runtime.ts"

/**
 * Runs a command on the embedded store itself (not on the app's ports: a restore must not open the store
 * first): prints its line, or one error line and exit code 1.
 */
const runOnEmbedded = async <E>(options: GlobalOptions, command: (dataDir: string) => Effect.Effect<string, E>) => {
  const exit: Exit.Exit<string, unknown> =
    options.databaseUrl !== undefined && options.databaseUrl.length > 0
      ? Exit.fail(new Error("tenders store works on the embedded store; with DATABASE_URL use pg_dump and pg_restore"))
      : await Effect.runPromiseExit(command(options.dataDir))
  if (Exit.isSuccess(exit)) {
    process.stdout.write(exit.value)
    return
  }
  process.stderr.write(`tenders: ${messageOf(Cause.squash(exit.cause))}\n`)
  process.exitCode = 1
}

/** `tenders store backup|restore`: a consistent copy of the embedded store, and putting one back. */
export const registerStore = (program: Command, globals: () => GlobalOptions) => {
  const store = program
    .command("store")
    .description("back up and restore the embedded store (the data directory's PGlite; not with DATABASE_URL)")
  store
    .command("backup")
    .description("write a consistent backup of the store to a file, also while a server runs (it takes the backup)")
    .requiredOption("--to <file>", "the file to write: a gzipped tarball of the store")
    .action((options: { readonly to: string }) =>
      runOnEmbedded(globals(), (dataDir) =>
        Effect.map(
          backupEmbedded(dataDir, options.to),
          (done) => `Backed up ${dataDir} to ${done.file} (${done.bytes} bytes).\n`
        )
      )
    )
  store
    .command("restore")
    .description(
      "restore a backup into the data directory; refused while a tenders process uses it, " +
        "and over a store unless --force"
    )
    .requiredOption("--from <file>", "a file written by `tenders store backup`")
    .option("--force", "replace the store in the data directory (kept beside it as pglite.replaced-<time>)")
    .action((options: { readonly from: string; readonly force?: boolean }) =>
      runOnEmbedded(globals(), (dataDir) =>
        Effect.map(restoreEmbedded(dataDir, options.from, { force: options.force === true }), (done) => {
          const replaced = done.replaced === undefined ? "" : ` The store it replaced is in ${done.replaced}.`
          return `Restored ${options.from} into ${done.dataDir}.${replaced}\n`
        })
      )
    )
}
