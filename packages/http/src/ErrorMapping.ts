import { ByteSize, Cause, Effect, Predicate } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, type HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { errorResponse } from "./ErrorResponse.ts"
import { issueMessage } from "@tenders/contract"

/** Request bodies above this size are refused with 400 (DESIGN §4, "The HTTP edge"). */
export const maxBodyBytes = 64 * 1024

const tooLarge = `Invalid request: the body is larger than ${maxBodyBytes / 1024} KiB`

const fromStatus = (response: HttpServerResponse.HttpServerResponse) => {
  switch (response.status) {
    case 404:
    case 405:
      return response.headers["content-type"]?.includes("json")
        ? response
        : errorResponse(404, "not_found", "No such route")
    case 413:
      return errorResponse(400, "invalid_input", tooLarge)
    case 415:
      return errorResponse(
        400,
        "invalid_input",
        "Invalid request: the body must be JSON (Content-Type: application/json)"
      )
    default:
      return response
  }
}

const reasonOf = (error: unknown) =>
  Predicate.isTagged(error, "HttpServerError") && Predicate.hasProperty(error, "reason") ? error.reason : undefined

const fromCause = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    const error = Cause.squash(cause)
    const reason = reasonOf(error)
    if (HttpServerError.isHttpServerError(error) && reason !== undefined) {
      if (Predicate.isTagged(reason, "RouteNotFound")) {
        const request = error.request
        return errorResponse(404, "not_found", `No route for ${request.method} ${request.url.split("?")[0]}`)
      }
      if (Predicate.isTagged(reason, "RequestParseError")) {
        const bodyTooLarge = Predicate.hasProperty(reason, "reason") && reason.reason === "BodyTooLarge"
        return errorResponse(
          400,
          "invalid_input",
          bodyTooLarge ? tooLarge : "Invalid request: the body could not be read"
        )
      }
    }
    if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
      return errorResponse(400, "invalid_input", issueMessage(error.cause))
    }
    if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return errorResponse(400, "invalid_input", tooLarge)
    if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
    const traceId = crypto.randomUUID()
    yield* Effect.logError("request failed", { traceId }, cause)
    return errorResponse(500, "internal", `Internal error; retry later (trace ${traceId})`)
  })

/**
 * Router-level mapping of everything outside the handlers' typed errors to the contract's error body:
 * decode failures, malformed JSON, wrong content type, oversized bodies, unknown routes, defects.
 */
export const ErrorMapping = HttpRouter.middleware(
  (httpEffect) =>
    httpEffect.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
      Effect.map(fromStatus),
      Effect.catchCause(fromCause)
    ),
  { global: true }
)
