import { type DateTime, Schema, type Stream } from "effect"
import type { ParseResult } from "../SourceNotice.ts"
import { SourceCode } from "../Source.ts"

/** A source could not be read (after the feed's own retries): the run fails, health says `error`. */
export class SourceUnavailable extends Schema.TaggedError<SourceUnavailable>()("SourceUnavailable", {
  source: SourceCode,
  message: Schema.String
}) {}

/** One page of a feed: what it parsed, and the cursor to resume from after it (opaque to everyone but the feed). */
export interface FeedPage {
  readonly results: ReadonlyArray<ParseResult>
  readonly cursor: string | null
}

/** Where a feed run starts: the cursor saved after the last page applied, or a backfill date. */
export interface FeedStart {
  readonly cursor: string | null
  readonly since: DateTime.Utc | null
}

/** A live source: pages of parsed notices from a start point, each with its resume cursor. */
export interface SourceFeed {
  readonly source: SourceCode
  readonly pages: (start: FeedStart) => Stream.Stream<FeedPage, SourceUnavailable>
}
