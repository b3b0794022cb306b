import { DateTime } from "effect"

/** An instant as a record shows it, to the minute in UTC whatever the reader's language: `2026-11-24 13:21 UTC`. */
export const utcStamp = (at: DateTime.Utc): string => `${DateTime.formatIso(at).slice(0, 16).replace("T", " ")} UTC`
