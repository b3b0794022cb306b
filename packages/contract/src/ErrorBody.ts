import {
  Internal,
  InvalidInput,
  LimitReached,
  NotFound,
  PlanRequired,
  QuotaExceeded,
  Unauthorized
} from "@tenders/core"
import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { RefusalHeaders, refusalFigures, refusalHeaders } from "./RateLimit.ts"

/** The seven error codes of the contract. */
export const ErrorCode = Schema.Literals([
  "invalid_input",
  "unauthorized",
  "plan_required",
  "limit_reached",
  "not_found",
  "quota_exceeded",
  "internal"
])
export type ErrorCode = typeof ErrorCode.Type

/** Each core error's code and HTTP status: the one table REST, MCP and the client SDK map errors with. */
export const errorCodes = {
  InvalidInput: { code: "invalid_input", status: 400 },
  Unauthorized: { code: "unauthorized", status: 401 },
  PlanRequired: { code: "plan_required", status: 403 },
  LimitReached: { code: "limit_reached", status: 403 },
  NotFound: { code: "not_found", status: 404 },
  QuotaExceeded: { code: "quota_exceeded", status: 429 },
  Internal: { code: "internal", status: 500 }
} as const satisfies Record<string, { readonly code: ErrorCode; readonly status: number }>

/** The tag of a core error the contract has a body for. */
export type ErrorTag = keyof typeof errorCodes

/** True when `tag` is the tag of one of the seven contract errors. */
export const isErrorTag = (tag: unknown): tag is ErrorTag => typeof tag === "string" && Object.hasOwn(errorCodes, tag)

type ErrorClass<Tag extends ErrorTag> = Schema.Codec<
  { readonly _tag: Tag; readonly message: string },
  { readonly _tag: Tag; readonly message: string }
> & { new (props: { readonly message: string }): { readonly _tag: Tag; readonly message: string } }

/** `{ "error": { code, message } }`: the wire body of an error code. */
const wireBody = <Tag extends ErrorTag>(tag: Tag) =>
  Schema.Struct({
    error: Schema.Struct({ code: Schema.Literal(errorCodes[tag].code), message: Schema.String })
  }).annotate({ identifier: `Error_${errorCodes[tag].code}` })

/** `{ "error": { code, message } }` on the wire, the core error class in code, with the code's status. */
const body = <Tag extends ErrorTag, C extends ErrorClass<Tag>>(errorClass: C, tag: Tag) => {
  const { code, status } = errorCodes[tag]
  return wireBody(tag).pipe(
    Schema.decodeTo(
      errorClass,
      SchemaTransformation.transform({
        decode: (wire: { readonly error: { readonly message: string } }) => ({
          _tag: tag,
          message: wire.error.message
        }),
        encode: (error: { readonly message: string }) => ({ error: { code, message: error.message } })
      })
    ),
    HttpApiSchema.status(status)
  )
}

/** `{ "error": { "code": "invalid_input", "message" } }` with status 400. */
export const InvalidInputError = body(InvalidInput, "InvalidInput")
/** 401 unauthorized. */
export const UnauthorizedError = body(Unauthorized, "Unauthorized")
/** 403 plan_required. */
export const PlanRequiredError = body(PlanRequired, "PlanRequired")
/** 403 limit_reached. */
export const LimitReachedError = body(LimitReached, "LimitReached")
/** 404 not_found. */
export const NotFoundError = body(NotFound, "NotFound")
/** 429 quota_exceeded, with `Retry-After` and the RateLimit fields built from the error's limit and reset. */
export const QuotaExceededError = QuotaExceeded.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: wireBody("QuotaExceeded").pipe(HttpApiSchema.status(errorCodes.QuotaExceeded.status)),
      headers: RefusalHeaders
    },
    {
      decode: ({ body, headers }) => new QuotaExceeded({ message: body.error.message, ...refusalFigures(headers) }),
      encode: (error) => ({
        body: { error: { code: errorCodes.QuotaExceeded.code, message: error.message } },
        headers: refusalHeaders(error)
      })
    }
  )
)
/** 500 internal. */
export const InternalError = body(Internal, "Internal")

/** One of the core errors behind the seven error codes. */
export type ContractFailure =
  InvalidInput | Unauthorized | PlanRequired | LimitReached | NotFound | QuotaExceeded | Internal

/** The wire body of any error. */
export const ErrorResponse = Schema.Struct({
  error: Schema.Struct({ code: ErrorCode, message: Schema.String })
})
export type ErrorResponse = typeof ErrorResponse.Type

/** The wire body of a core error: its code from {@link errorCodes} and its message. */
export const errorBodyOf = (failure: ContractFailure): ErrorResponse => ({
  error: { code: errorCodes[failure._tag].code, message: failure.message }
})
