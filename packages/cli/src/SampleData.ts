import { TenderRecord } from "@tenders/core"
import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/** The bundled sample dataset (docs/sample-data.md). */
export const samplePath = join(import.meta.dirname, "..", "data", "sample-tenders.jsonl")

/** The instant the sample's dates are relative to; seeding shifts them by the time elapsed since. */
export const sampleAnchor = Date.parse("2026-11-21T00:00:00Z")

const shift = (iso: string | null, ms: number) =>
  iso === null ? null : new Date(Date.parse(iso) + ms).toISOString().replace(/\.\d{3}Z$/u, "Z")

/** The sample records with every date moved so that `sampleAnchor` becomes `nowMs`. */
export const loadSample = (nowMs: number) =>
  Effect.gen(function* () {
    const delta = Math.floor((nowMs - sampleAnchor) / 1000) * 1000
    const lines = readFileSync(samplePath, "utf8")
      .split("\n")
      .filter((line) => line.trim().length > 0)
    return yield* Effect.forEach(lines, (line) =>
      Schema.decodeUnknownEffect(Schema.fromJsonString(TenderRecord))(line).pipe(
        Effect.map((record) => ({
          ...record,
          deadline: shift(record.deadline, delta),
          publishedAt: shift(record.publishedAt, delta)
        }))
      )
    )
  })
