import { type ClassificationPack, classificationPacks, ClassificationStore, type PackInfo } from "@tenders/core"
import type { Command } from "commander"
import { Argument } from "commander"
import { Effect } from "effect"
import { importPackFiles } from "../Packs.ts"
import { type GlobalOptions, runCommand } from "../Runtime.ts"

/** A pack's status in one line. */
export const describePack = (info: PackInfo) =>
  `${info.pack}: ${info.inForce} in force, ${info.withdrawn} withdrawn ` +
  `(version ${info.version}, imported ${info.importedAt})`

/** Prints a line in place (a terminal) or once per tenth (a file or pipe): re-analysis progress. */
const progressPrinter = () => {
  const terminal = process.stderr.isTTY
  let shown = -1
  return (done: number, total: number) =>
    Effect.sync(() => {
      const tenth = total === 0 ? 10 : Math.floor((done * 10) / total)
      if (terminal) process.stderr.write(`\rre-analysing tenders: ${done} of ${total}`)
      else if (tenth !== shown) process.stderr.write(`re-analysing tenders: ${done} of ${total}\n`)
      shown = tenth
    })
}

/**
 * `tenders classifications import|status`: the classification packs an operator supplies (OKPD2 with its Russian
 * labels; the CPV's Russian labels), kept in the store for every process and replica.
 */
export const registerClassifications = (program: Command, globals: () => GlobalOptions) => {
  const classifications = program
    .command("classifications")
    .description("import and show the classification packs search reads (OKPD2, Russian CPV labels)")
  classifications
    .command("import")
    .description(
      "import a pack: okpd2 FILE... (the codes in force as a table, code<TAB>label, or as EIS's nsiOKPD2 XML, and " +
        "older editions as CSV Name;...;Kod for the withdrawn codes) or cpv-ru FILE (a JSON object of code-check: " +
        "Russian label); the tenders are then analysed again, while a running server keeps answering"
    )
    .addArgument(new Argument("<pack>", "the pack").choices(classificationPacks))
    .argument("<files...>", "the pack's files")
    .action((pack: ClassificationPack, files: ReadonlyArray<string>) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const { changed, info, analysed } = yield* importPackFiles(pack, files, progressPrinter())
          process.stdout.write(`${describePack(info)}${changed ? "" : " — unchanged, nothing to do"}\n`)
          if (!changed) return
          if (process.stderr.isTTY) process.stderr.write("\n")
          process.stdout.write(`${analysed} tenders analysed again with the ${pack} pack\n`)
        })
      )
    )
  classifications
    .command("status")
    .description("print each pack loaded with its count of codes")
    .option("--json", "print JSON")
    .action((options: { readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const infos = yield* (yield* ClassificationStore).status
          if (options.json === true) return process.stdout.write(`${JSON.stringify(infos)}\n`)
          const loaded = new Map(infos.map((info) => [info.pack, info]))
          for (const pack of classificationPacks) {
            const info = loaded.get(pack)
            process.stdout.write(`${info === undefined ? `${pack}: not imported` : describePack(info)}\n`)
          }
        })
      )
    )
}
