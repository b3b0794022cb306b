import { formatUtc, TenderRecord } from "@tenders/core"
import { DateTime, Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/** The bundled sample dataset (docs/sample-data.md). */
export const samplePath = join(import.meta.dirname, "..", "data", "sample-tenders.jsonl")

/** The instant the sample's dates are relative to (epoch milliseconds); seeding shifts them by the time since. */
export const sampleAnchor = DateTime.toEpochMillis(DateTime.makeUnsafe("2026-11-21T00:00:00Z"))

const shift = (iso: string | null, seconds: number) =>
  iso === null ? null : formatUtc(DateTime.add(DateTime.makeUnsafe(iso), { seconds }))

/** The sample records with every date moved so that `sampleAnchor` becomes `now` (to the second). */
export const loadSample = Effect.fn("loadSample")(function* (now: DateTime.Utc) {
  const seconds = Math.floor((DateTime.toEpochMillis(now) - sampleAnchor) / 1000)
  const lines = readFileSync(samplePath, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
  return yield* Effect.forEach(lines, (line) =>
    Schema.decodeUnknownEffect(Schema.fromJsonString(TenderRecord))(line).pipe(
      Effect.map((record) => ({
        ...record,
        deadline: shift(record.deadline, seconds),
        publishedAt: shift(record.publishedAt, seconds)
      }))
    )
  )
})
