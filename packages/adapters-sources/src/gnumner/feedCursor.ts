import { DateTime, Option, Schema } from "effect"

/** Resume points per listing section: section slug -> the newest publication time (UTC ISO) already applied. */
export type SectionCursor = Readonly<Record<string, string>>

const CursorJson = Schema.fromJsonString(Schema.Struct({ sections: Schema.Record(Schema.String, Schema.String) }))
const decodeCursorJson = Schema.decodeUnknownOption(CursorJson)

/** Reads a feed cursor `{"sections":{"<slug>":"<ISO>"}}`; an absent or unreadable cursor (or entry) counts as empty. */
export const decodeCursor = (cursor: string | null): SectionCursor => {
  if (cursor === null) return {}
  const decoded = decodeCursorJson(cursor)
  if (Option.isNone(decoded)) return {}
  return Object.fromEntries(
    Object.entries(decoded.value.sections).filter(([, iso]) => Option.isSome(DateTime.make(iso)))
  )
}

/** Writes a feed cursor, sections sorted so equal cursors are equal strings. */
export const encodeCursor = (sections: SectionCursor): string =>
  JSON.stringify({
    sections: Object.fromEntries(Object.entries(sections).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  })

/** The later of two ISO times (null-tolerant). */
export const laterIso = (a: string | null, b: string | null): string | null => {
  if (a === null) return b
  if (b === null) return a
  return DateTime.isGreaterThan(DateTime.makeUnsafe(b), DateTime.makeUnsafe(a)) ? b : a
}
