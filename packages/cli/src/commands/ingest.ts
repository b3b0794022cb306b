import { ingestNotices, ingestRecords, type ParseResult, SourceCode, TenderRecord } from "@tenders/core"
import { SingleBar } from "cli-progress"
import type { Command } from "commander"
import { Option as CliOption } from "commander"
import { Effect, Schema } from "effect"
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { type GlobalOptions, runCommand, UsageError } from "../Runtime.ts"
import { parsePayloadFile, payloadFiles } from "../SourceFiles.ts"

const decodeLine = Schema.decodeUnknownResult(Schema.fromJsonString(TenderRecord))

const cannotRead = (path: string) => (cause: unknown) =>
  new UsageError(`cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`)

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
    catch: cannotRead(path)
  })

const progressBar = (total: number, unit: string) =>
  total >= 2000 || (unit === "files" && total >= 20)
    ? process.stderr.isTTY ? new SingleBar({ format: `ingest [{bar}] {percentage}% {value}/{total} ${unit}`, stream: process.stderr }) : undefined
    : undefined

const reportRejected = (lines: ReadonlyArray<string>) => {
  for (const line of lines.slice(0, 20)) process.stderr.write(`rejected ${line}\n`)
  if (lines.length > 20) process.stderr.write(`... and ${lines.length - 20} more rejected\n`)
}

const print = (summary: Record<string, number>, json: boolean) =>
  process.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${Object.entries(summary).map(([k, v]) => `${k} ${v}`).join(", ")}\n`)

interface IngestOptions {
  readonly from?: string
  readonly source?: SourceCode
  readonly section?: string
  readonly json?: boolean
}

const normalised = (from: string, json: boolean) =>
  Effect.gen(function*() {
    const { records, rejected } = yield* readRecords(from)
    reportRejected(rejected)
    const bar = progressBar(records.length, "records")
    bar?.start(records.length, 0)
    const counts = yield* ingestRecords(records, (done) => Effect.sync(() => bar?.update(done)))
    bar?.stop()
    print({ ...counts, rejected: rejected.length }, json)
  })

const recorded = (source: SourceCode, from: string, section: string | undefined, json: boolean) =>
  Effect.gen(function*() {
    const files = yield* Effect.try({ try: () => payloadFiles(from, source), catch: cannotRead(from) })
    const bar = progressBar(files.length, "files")
    bar?.start(files.length, 0)
    const results: Array<ParseResult> = []
    for (const [i, file] of files.entries()) {
      results.push(yield* Effect.try({ try: () => parsePayloadFile(file, source, { section }), catch: cannotRead(file) }))
      bar?.update(i + 1)
    }
    bar?.stop()
    reportRejected(results.flatMap((r) => r.rejected.map((x) => `${x.where}: ${x.reason}`)))
    print({ files: files.length, ...(yield* ingestNotices(results)) }, json)
  })

/** `tenders ingest`: normalised JSON lines, or recorded payloads in a source's own format. */
export const registerIngest = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("ingest")
    .description("import tenders: normalised JSON lines (--from FILE), or a source's recorded payloads (--source X --from FILE|DIR)")
    .option("--from <path>", "a JSON-lines file of normalised records, or with --source a payload file or directory")
    .addOption(new CliOption("--source <source>", "read the source's own format: TED search JSON, gnumner HTML pages, EIS XML").choices(SourceCode.literals))
    .option("--section <slug>", "gnumner listing section of the pages (default: read from the file name or the page)")
    .option("--json", "print the summary as JSON")
    .action((options: IngestOptions) =>
      runCommand(globals(), Effect.gen(function*() {
        if (options.from === undefined) {
          return yield* Effect.fail(new UsageError(
            options.source === undefined
              ? "pass --from FILE (normalised JSON lines) or --source X --from PATH (recorded payloads)"
              : `live fetching from ${options.source} is not available yet: pass --from with recorded payloads`
          ))
        }
        if (options.source === undefined) return yield* normalised(options.from, options.json === true)
        return yield* recorded(options.source, options.from, options.section, options.json === true)
      })))
