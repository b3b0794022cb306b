import { Schema } from "effect"

/** The embedded PGlite store could not be started, reached or stopped. */
export class EmbeddedStoreError extends Schema.TaggedError<EmbeddedStoreError>()("EmbeddedStoreError", {
  message: Schema.String
}) {}
