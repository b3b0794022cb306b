import { Context, Duration } from "effect"
import type { SourceCode } from "../Source.ts"

/** How often each source is fetched; health calls a source stalled after three missed intervals. */
export const SourceIntervals = Context.Reference<Record<SourceCode, Duration.Duration>>(
  "@tenders/core/SourceIntervals",
  { defaultValue: () => ({ ted: Duration.hours(1), gnumner: Duration.hours(2), eaeu: Duration.hours(1) }) }
)
