import { ingestRecords, TenderRecord } from "@tenders/core"
import { SingleBar } from "cli-progress"
import type { Command } from "commander"
import { Effect, Schema } from "effect"
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { type GlobalOptions, runCommand, UsageError } from "../Runtime.ts"

const decodeLine = Schema.decodeUnknownResult(Schema.fromJsonString(TenderRecord))

/** Reads normalised JSON lines; bad lines are rejected with their line number, never fatal. */
const readRecords = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const records: Array<TenderRecord> = []
      const rejected: Array<string> = []
      let lineNo = 0
      for await (const line of createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity })) {
        lineNo++
        if (line.trim().length === 0) continue
        const result = decodeLine(line)
        if (result._tag === "Success") records.push(result.success)
        else rejected.push(`line ${lineNo}: ${result.failure.message.split("\n").join(" ")}`)
      }
      return { records, rejected }
    },
    catch: (cause) => new UsageError(`cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`)
  })

/** `tenders ingest --from FILE`: imports normalised records (docs/sample-data.md). */
export const registerIngest = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("ingest")
    .description("import tenders from a file of normalised JSON lines (docs/sample-data.md)")
    .requiredOption("--from <file>", "JSON-lines file of normalised tender records")
    .option("--json", "print the summary as JSON")
    .action((options: { readonly from: string; readonly json?: boolean }) =>
      runCommand(globals(), Effect.gen(function*() {
        const { records, rejected } = yield* readRecords(options.from)
        for (const line of rejected.slice(0, 20)) process.stderr.write(`rejected ${line}\n`)
        if (rejected.length > 20) process.stderr.write(`... and ${rejected.length - 20} more rejected lines\n`)
        const bar = records.length >= 2000 && process.stderr.isTTY
          ? new SingleBar({ format: "ingest [{bar}] {percentage}% {value}/{total} records", stream: process.stderr })
          : undefined
        bar?.start(records.length, 0)
        const counts = yield* ingestRecords(records, (done) => Effect.sync(() => bar?.update(done)))
        bar?.stop()
        const summary = { ...counts, rejected: rejected.length }
        process.stdout.write(
          options.json === true
            ? `${JSON.stringify(summary)}\n`
            : `new ${summary.new}, updated ${summary.updated}, unchanged ${summary.unchanged}, rejected ${summary.rejected}\n`
        )
      })))
