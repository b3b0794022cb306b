import { Schema } from "effect"

/** The request does not match the contract (400 invalid_input at the edge). */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", { message: Schema.String }) {}

/** No usable credential (401 unauthorized). */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { message: Schema.String }) {}

/** The feature needs a higher plan (403 plan_required). */
export class PlanRequired extends Schema.TaggedError<PlanRequired>()("PlanRequired", { message: Schema.String }) {}

/** The plan's watchlist limit is reached (403 limit_reached). */
export class LimitReached extends Schema.TaggedError<LimitReached>()("LimitReached", { message: Schema.String }) {}

/** No tender with the given id (404 not_found). */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { message: Schema.String }) {}

/**
 * The monthly call limit is used up (429 quota_exceeded), with the limit and the seconds until it resets (the UTC
 * month's end). The server always knows both; a client knows them when the response carried its RateLimit headers.
 */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  message: Schema.String,
  limit: Schema.optionalKey(Schema.Int),
  resetSeconds: Schema.optionalKey(Schema.Int)
}) {}

/** A server-side fault (500 internal). */
export class Internal extends Schema.TaggedError<Internal>()("Internal", { message: Schema.String }) {}
