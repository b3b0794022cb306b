// Importing classification packs from files: the `classifications import` command, and `serve` with
// TENDERS_CLASSIFICATIONS_DIR.
import { type ClassificationPack, importPack, loadPacks, SearchText, TenderStore } from "@tenders/core"
import { parsePack } from "@tenders/search-text"
import { reanalyseStale } from "@tenders/store-postgres"
import { Effect, Result } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { basename, join } from "node:path"
import { messageOf, UsageError } from "./Runtime.ts"

/**
 * Imports a pack from its files: refused whole (UsageError naming the file, the line and the reason) when one is
 * malformed; when the pack changed, this process's analysis takes it and the tenders are analysed again (`progress`
 * hears how far), and the search's statistics are read again.
 */
export const importPackFiles = Effect.fn("importPackFiles")(function* (
  pack: ClassificationPack,
  files: ReadonlyArray<string>,
  progress: (done: number, total: number) => Effect.Effect<void>
) {
  const read = yield* Effect.forEach(files, (file) =>
    Effect.try({
      try: () => ({ name: basename(file), text: readFileSync(file, "utf8") }),
      catch: (cause) => new UsageError(`cannot read ${file}: ${messageOf(cause)}`)
    })
  )
  const parsed = parsePack(pack, read)
  if (Result.isFailure(parsed)) {
    const { file, line, reason } = parsed.failure
    return yield* Effect.fail(
      new UsageError(`${file}${line > 0 ? `, line ${line}` : ""}: ${reason}; nothing was imported`)
    )
  }
  const { changed, info } = yield* importPack(pack, parsed.success)
  if (!changed) return { changed, info, analysed: 0 }
  ;(yield* SearchText).usePacks(yield* loadPacks())
  const analysed = yield* reanalyseStale(progress)
  yield* (yield* TenderStore).refreshStatistics
  return { changed, info, analysed }
})

/**
 * The files of each pack in a folder: OKPD2's tables (`.tsv`), EIS reference data (`.xml`) and editions (`.csv`), the
 * Russian CPV labels (`.json`).
 */
export const packFilesIn = (directory: string): ReadonlyArray<readonly [ClassificationPack, ReadonlyArray<string>]> => {
  const names = readdirSync(directory).toSorted()
  const okpd2 = names.filter((name) => /\.(tsv|csv|xml)$/u.test(name)).map((name) => join(directory, name))
  const cpvRu = names.filter((name) => name.endsWith(".json")).map((name) => join(directory, name))
  return [
    ...(okpd2.length > 0 ? [["okpd2", okpd2] as const] : []),
    ...(cpvRu.length > 0 ? [["cpv-ru", cpvRu] as const] : [])
  ]
}
