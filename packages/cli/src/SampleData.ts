import { formatUtc, TenderRecord } from "@tenders/core"
import { DateTime, Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * The bundled sample dataset (docs/sample-data.md), found through the package's own exports: the same file from these
 * sources and from the server's bundle and its chunks (packages/cli/dist), which are elsewhere than this file.
 */
export const samplePath = fileURLToPath(import.meta.resolve("@tenders/cli/data/sample-tenders.jsonl"))

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
