import { Data, type Duration } from "effect"
import { HttpClient, type HttpClientResponse } from "effect/http"

/** A response read in full within the attempt's time limit. */
export interface Reply {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly body: Uint8Array
}

const utf8 = new TextDecoder("utf-8")

/** The body of a reply as UTF-8 text. */
export const replyText = (reply: Reply): string => utf8.decode(reply.body)

/**
 * Why one attempt of a feed request gave nothing usable: `retry` when another attempt may help (after
 * `retryAfter` when the server said how long to wait), else the run stops at once.
 */
export class AttemptFailure extends Data.TaggedError("AttemptFailure")<{
  readonly reason: string
  readonly retry: boolean
  readonly retryAfter?: Duration.Duration | undefined
}> {}

/** A failure another attempt may cure (rate limit, server error, timeout, network, a damaged body). */
export const retryable = (reason: string): AttemptFailure => new AttemptFailure({ reason, retry: true })

/** A failure no retry cures: the run stops with `SourceUnavailable`. */
export const fatal = (reason: string): AttemptFailure => new AttemptFailure({ reason, retry: false })

/**
 * What the status of a reply alone says: nothing for 2xx, a retry for the statuses Effect's
 * `HttpClient.isTransientResponse` calls transient (408, 429, 500, 502, 503, 504), else fatal.
 */
export const statusFailure = (reply: Reply, detail?: string): AttemptFailure | undefined => {
  const status = reply.response.status
  if (status >= 200 && status < 300) return undefined
  const reason = detail === undefined || detail === "" ? `HTTP ${status}` : `HTTP ${status}: ${detail}`
  return HttpClient.isTransientResponse(reply.response) ? retryable(reason) : fatal(reason)
}
