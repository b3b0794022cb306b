import { sourceCodes, sourceHealth, SourceRunStore } from "@tenders/core"
import type { Command } from "commander"
import { Effect } from "effect"
import { type GlobalOptions, runCommand } from "../Runtime.ts"
import { table } from "../Table.ts"

const counts = (summary: Record<string, number>) =>
  ["new", "amended", "cancelled", "closed", "unchanged", "rejected"].map((k) => `${k} ${summary[k] ?? 0}`).join(", ")

/** `tenders sources`: per source the health status, last success, last error and the last run's counts. */
export const registerSources = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("sources")
    .description("show each source's health, last success, last error and the counts of its last run")
    .option("--json", "print as JSON")
    .action((options: { readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const health = yield* sourceHealth
          const runs = yield* SourceRunStore
          const rows = yield* Effect.forEach(sourceCodes, (code) =>
            Effect.map(runs.recentRuns(code, 20), (recent) => {
              const status = health.sources.find((s) => s.code === code)
              const failure = recent.find((r) => r.error !== null)
              const last = recent.find((r) => r.finishedAt !== null)
              return {
                code,
                status: status?.status ?? "never",
                lastSuccessAt: status?.lastSuccessAt ?? null,
                lastError: failure === undefined ? null : { at: failure.finishedAt, message: failure.error },
                lastRun:
                  last === undefined
                    ? null
                    : { startedAt: last.startedAt, finishedAt: last.finishedAt, summary: last.summary }
              }
            })
          )
          if (options.json === true) {
            process.stdout.write(`${JSON.stringify({ status: health.status, sources: rows })}\n`)
            return
          }
          process.stdout.write(
            `${table(
              ["SOURCE", "STATUS", "LAST SUCCESS", "LAST RUN", "LAST ERROR"],
              rows.map((r) => [
                r.code,
                r.status,
                r.lastSuccessAt ?? "-",
                r.lastRun === null ? "-" : counts(r.lastRun.summary),
                r.lastError === null ? "-" : `${r.lastError.at ?? ""} ${r.lastError.message ?? ""}`.trim()
              ]),
              { maxWidths: [8, 8, 24, 70, 80] }
            )}\n\noverall: ${health.status}\n`
          )
        })
      )
    )
