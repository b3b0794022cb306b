import type { ParseResult } from "@tenders/core"
import { Option, Result, Schema } from "effect"
import { type AttemptFailure, type Reply, replyText, retryable, statusFailure } from "../http/AttemptFailure.ts"
import { parseTedNotices, readTedSearchResponse, type TedSearchResponse } from "./parse.ts"

/** A usable search response: what it holds and what parse.ts made of its notices. */
export interface TedSearchPage {
  readonly response: TedSearchResponse
  readonly result: ParseResult
}

const snippet = (text: string): string => {
  const flat = text.replace(/\s+/gu, " ").trim()
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat
}

const decodeJson = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Unknown))

const ErrorBody = Schema.fromJsonString(
  Schema.Struct({
    message: Schema.optional(Schema.String),
    error: Schema.optional(Schema.Struct({ type: Schema.optional(Schema.String) }))
  })
)
const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

/** The `message` (and error type) of a TED error body, else a snippet of the body. */
const errorMessage = (text: string): string =>
  Option.match(decodeErrorBody(text), {
    onNone: () => snippet(text),
    onSome: (body) => {
      const message = body.message ?? snippet(text)
      return body.error?.type === undefined ? message : `${body.error.type}: ${message}`
    }
  })

/**
 * Reads a reply of the search endpoint: a 400 (query error) and other non-transient statuses end the run with
 * TED's message; transient statuses, a body that is not JSON or not a search response, and a `timedOut`
 * partial result are retried.
 */
export const readTedReply = (reply: Reply): Result.Result<TedSearchPage, AttemptFailure> => {
  const text = replyText(reply)
  const byStatus = statusFailure(reply, errorMessage(text))
  if (byStatus !== undefined) return Result.fail(byStatus)
  return decodeJson(text).pipe(
    Result.mapError(() => retryable(`response is not valid JSON: ${snippet(text)}`)),
    Result.flatMap((body) => Result.mapError(readTedSearchResponse(body), retryable)),
    Result.flatMap((response) =>
      response.timedOut
        ? Result.fail(retryable("TED timed out (partial result)"))
        : Result.succeed({ response, result: parseTedNotices(response.notices) })
    )
  )
}
