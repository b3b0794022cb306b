import { Context, type Duration } from "effect"
import type { SourceCode } from "../Source.ts"
import { defaultSourceIntervals } from "../Settings.ts"

/** How often each source is fetched; health calls a source stalled after three missed intervals. */
export const SourceIntervals = Context.Reference<Record<SourceCode, Duration.Duration>>(
  "@tenders/core/SourceIntervals",
  { defaultValue: () => ({ ...defaultSourceIntervals }) }
)
