import {
  evaluateAlerts,
  ingestNotices,
  ingestRecords,
  instantExpectation,
  parseInstant,
  type ParseResult,
  runSource,
  SourceCode,
  sourceCodes,
  TenderRecord
} from "@tenders/core"
import { SingleBar } from "cli-progress"
import type { Command } from "commander"
import { Option as CliOption } from "commander"
import { Effect, Option, Schema } from "effect"
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { type GlobalOptions, messageOf, runCommand, UsageError } from "../Runtime.ts"
import { feedFor } from "../Feeds.ts"
import { parsePayloadFile, payloadFiles } from "../SourceFiles.ts"

const decodeLine = Schema.decodeUnknownResult(Schema.fromJsonString(TenderRecord))

const cannotRead = (path: string) => (cause: unknown) => new UsageError(`cannot read ${path}: ${messageOf(cause)}`)

/** A rejection as one short line: a schema message can quote the whole offending value. */
const rejection = (where: string, reason: string) =>
  `${where}: ${reason.length > 300 ? `${reason.slice(0, 300)}…` : reason}`

/**
 * Reads normalised JSON lines; bad lines are rejected with their line number, never fatal. A UTF-8 byte-order mark
 * at the start of the file (editors on Windows write one) is not part of the first record.
 */
const readRecords = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const records: Array<TenderRecord> = []
      const rejected: Array<string> = []
      let lineNo = 0
      for await (const line of createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity })) {
        lineNo++
        const text = lineNo === 1 && line.startsWith("\uFEFF") ? line.slice(1) : line
        if (text.trim().length === 0) continue
        const result = decodeLine(text)
        if (result._tag === "Success") records.push(result.success)
        else rejected.push(rejection(`line ${lineNo}`, messageOf(result.failure)))
      }
      return { records, rejected }
    },
    catch: cannotRead(path)
  })

const progressBar = (total: number, unit: string) =>
  total >= 2000 || (unit === "files" && total >= 20)
    ? process.stderr.isTTY
      ? new SingleBar({ format: `ingest [{bar}] {percentage}% {value}/{total} ${unit}`, stream: process.stderr })
      : undefined
    : undefined

const reportRejected = (lines: ReadonlyArray<string>) => {
  for (const line of lines.slice(0, 20)) process.stderr.write(`rejected ${line}\n`)
  if (lines.length > 20) process.stderr.write(`... and ${lines.length - 20} more rejected\n`)
}

/** An input that had something in it of which nothing could be read is a failed import, not an empty one. */
const requireAccepted = (from: string, accepted: number, rejected: number) =>
  accepted === 0 && rejected > 0
    ? Effect.fail(new UsageError(`nothing imported: all ${rejected} record(s) of ${from} were rejected`))
    : Effect.void

const print = (summary: Record<string, number>, json: boolean) =>
  process.stdout.write(
    json
      ? `${JSON.stringify(summary)}\n`
      : `${Object.entries(summary)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}\n`
  )

interface IngestOptions {
  readonly from?: string
  readonly source?: SourceCode | "all"
  readonly section?: string
  readonly since?: string
  readonly json?: boolean
}

/** Fetches live: one run per source from its saved cursor (or `since`), recorded for health. */
const live = Effect.fn("ingest.live")(function* (
  sources: ReadonlyArray<SourceCode>,
  sinceText: string | undefined,
  json: boolean
) {
  const since = sinceText === undefined ? null : Option.getOrNull(parseInstant(sinceText))
  if (sinceText !== undefined && since === null) {
    return yield* Effect.fail(new UsageError(`--since must be ${instantExpectation}, got "${sinceText}"`))
  }
  let failed = false
  for (const source of sources) {
    const feed = yield* feedFor(source).pipe(Effect.mapError((e) => new UsageError(e.message)))
    const outcome = yield* runSource(feed, { owner: `cli-${process.pid}`, since })
    failed ||= outcome.error !== null
    const line = { source, ...outcome.summary, error: outcome.error }
    process.stdout.write(
      json
        ? `${JSON.stringify(line)}\n`
        : `${source}: ${Object.entries(outcome.summary)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")}${outcome.error === null ? "" : ` — failed: ${outcome.error}`}\n`
    )
  }
  if (failed) process.exitCode = 1
})

const normalised = Effect.fn("ingest.normalised")(function* (from: string, json: boolean) {
  const { records, rejected } = yield* readRecords(from)
  reportRejected(rejected)
  const bar = progressBar(records.length, "records")
  bar?.start(records.length, 0)
  const counts = yield* ingestRecords(records, (done) => Effect.sync(() => bar?.update(done)))
  bar?.stop()
  print({ ...counts, rejected: rejected.length }, json)
  yield* requireAccepted(from, records.length, rejected.length)
})

const recorded = Effect.fn("ingest.recorded")(function* (
  source: SourceCode,
  from: string,
  section: string | undefined,
  json: boolean
) {
  const files = yield* Effect.try({ try: () => payloadFiles(from, source), catch: cannotRead(from) })
  const bar = progressBar(files.length, "files")
  bar?.start(files.length, 0)
  const results: Array<ParseResult> = []
  for (const [i, file] of files.entries()) {
    results.push(yield* Effect.try({ try: () => parsePayloadFile(file, source, { section }), catch: cannotRead(file) }))
    bar?.update(i + 1)
  }
  bar?.stop()
  reportRejected(results.flatMap((r) => r.rejected.map((x) => rejection(x.where, x.reason))))
  const summary = yield* ingestNotices(results)
  print({ files: files.length, ...summary }, json)
  yield* requireAccepted(from, results.flatMap((r) => r.notices).length, summary.rejected)
})

const ingestDescription =
  "import tenders: normalised JSON lines (--from FILE), a source's recorded payloads (--source X --from PATH), " +
  "or live (--source X|all)"

const sourceDescription =
  "fetch live from a source (or all), or with --from read its own format: " +
  "TED search JSON, gnumner HTML pages, EIS XML"

/** `tenders ingest`: normalised JSON lines, or recorded payloads in a source's own format. */
export const registerIngest = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("ingest")
    .description(ingestDescription)
    .option("--from <path>", "a JSON-lines file of normalised records, or with --source a payload file or directory")
    .addOption(new CliOption("--source <source>", sourceDescription).choices([...SourceCode.literals, "all"]))
    .option("--since <date>", "live backfill from this date instead of the saved cursor")
    .option("--section <slug>", "gnumner listing section of the pages (default: read from the file name or the page)")
    .option("--json", "print the summary as JSON")
    .action((options: IngestOptions) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const json = options.json === true
          if (options.source === undefined) {
            if (options.from === undefined)
              return yield* Effect.fail(
                new UsageError(
                  "pass --from FILE (normalised JSON lines) or --source X (live, or --from recorded payloads)"
                )
              )
            yield* normalised(options.from, json)
          } else if (options.from === undefined) {
            yield* live(options.source === "all" ? sourceCodes : [options.source], options.since, json)
          } else {
            if (options.source === "all")
              return yield* Effect.fail(new UsageError("--from needs one --source: each source has its own format"))
            yield* recorded(options.source, options.from, options.section, json)
          }
          // Alerts follow ingestion at once, whether or not a server runs.
          yield* evaluateAlerts()
        })
      )
    )
