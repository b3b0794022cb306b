import { issueMessage } from "@tenders/contract"
import { InvalidInput, isBodyTooLarge, NotFound, reportDefect } from "@tenders/core"
import { ByteSize, Cause, Effect, Predicate } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, type HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { failureResponse } from "./ErrorResponse.ts"
import { observeRequest } from "./RequestMetrics.ts"

/** Request bodies above this size are refused with 400 (DESIGN §4, "The HTTP edge"). */
export const maxBodyBytes = 64 * 1024

const tooLarge = () =>
  failureResponse(new InvalidInput({ message: `Invalid request: the body is larger than ${maxBodyBytes / 1024} KiB` }))

const notJson = () =>
  failureResponse(
    new InvalidInput({ message: "Invalid request: the body must be JSON (Content-Type: application/json)" })
  )

/**
 * The framework's bare answers in the contract's words. An answer with a body of its own is left alone: JSON (the
 * API's errors) and HTML (the dashboard's pages, such as its 404 for another account's key).
 */
const fromStatus = (response: HttpServerResponse.HttpServerResponse) => {
  const type = response.headers["content-type"] ?? ""
  if (type.includes("json") || type.startsWith("text/html")) return response
  switch (response.status) {
    case 404:
    case 405:
      return failureResponse(new NotFound({ message: "No such route" }))
    case 413:
      return tooLarge()
    case 415:
      return notJson()
    default:
      return response
  }
}

const reasonOf = (error: unknown) =>
  Predicate.isTagged(error, "HttpServerError") && Predicate.hasProperty(error, "reason") ? error.reason : undefined

const fromCause = Effect.fnUntraced(function* (cause: Cause.Cause<unknown>) {
  const error = Cause.squash(cause)
  const reason = reasonOf(error)
  if (HttpServerError.isHttpServerError(error) && reason !== undefined) {
    if (Predicate.isTagged(reason, "RouteNotFound")) {
      const { method, url } = error.request
      return failureResponse(new NotFound({ message: `No route for ${method} ${url.split("?")[0]}` }))
    }
    if (Predicate.isTagged(reason, "RequestParseError")) {
      return isBodyTooLarge(error)
        ? tooLarge()
        : failureResponse(new InvalidInput({ message: "Invalid request: the body could not be read" }))
    }
  }
  if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
    return failureResponse(new InvalidInput({ message: issueMessage(error.cause) }))
  }
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return tooLarge()
  return failureResponse(yield* reportDefect(cause, "request failed"))
})

/**
 * Router-level mapping of everything outside the handlers' typed errors to the contract's error body:
 * decode failures, malformed JSON, wrong content type, oversized bodies, unknown routes, defects; and every answer
 * counted and timed (`observeRequest`).
 */
export const ErrorMapping = HttpRouter.middleware(
  (httpEffect) =>
    observeRequest((probe) =>
      probe(httpEffect).pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
        Effect.map(fromStatus),
        Effect.catchCause(fromCause)
      )
    ),
  { global: true }
)
