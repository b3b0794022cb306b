import { Internal, InvalidInput, LimitReached, NotFound, PlanRequired, QuotaExceeded, Unauthorized } from "@tenders/core"
import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** The seven error codes of the contract. */
export const ErrorCode = Schema.Literals([
  "invalid_input", "unauthorized", "plan_required", "limit_reached", "not_found", "quota_exceeded", "internal"
])
export type ErrorCode = typeof ErrorCode.Type

type ErrorClass<Tag extends string> = Schema.Top & {
  new(props: { readonly message: string }): { readonly _tag: Tag; readonly message: string }
  readonly "Encoded": { readonly _tag: Tag; readonly message: string }
  readonly "Type": { readonly _tag: Tag; readonly message: string }
}

const body = <const Code extends ErrorCode, Tag extends string>(
  errorClass: ErrorClass<Tag> & Schema.Codec<{ readonly _tag: Tag; readonly message: string }, { readonly _tag: Tag; readonly message: string }>,
  tag: Tag,
  code: Code,
  status: number
) =>
  Schema.Struct({
    error: Schema.Struct({ code: Schema.Literal(code), message: Schema.String })
  }).annotate({ identifier: `Error_${code}` }).pipe(
    Schema.decodeTo(errorClass, SchemaTransformation.transform({
      decode: (wire: { readonly error: { readonly message: string } }) => ({ _tag: tag, message: wire.error.message }),
      encode: (error: { readonly message: string }) => ({ error: { code, message: error.message } })
    })),
    HttpApiSchema.status(status)
  )

/** `{ "error": { "code": "invalid_input", "message" } }` with status 400. */
export const InvalidInputError = body(InvalidInput, "InvalidInput", "invalid_input", 400)
/** 401 unauthorized. */
export const UnauthorizedError = body(Unauthorized, "Unauthorized", "unauthorized", 401)
/** 403 plan_required. */
export const PlanRequiredError = body(PlanRequired, "PlanRequired", "plan_required", 403)
/** 403 limit_reached. */
export const LimitReachedError = body(LimitReached, "LimitReached", "limit_reached", 403)
/** 404 not_found. */
export const NotFoundError = body(NotFound, "NotFound", "not_found", 404)
/** 429 quota_exceeded. */
export const QuotaExceededError = body(QuotaExceeded, "QuotaExceeded", "quota_exceeded", 429)
/** 500 internal. */
export const InternalError = body(Internal, "Internal", "internal", 500)

/** The wire body of any error. */
export const ErrorResponse = Schema.Struct({
  error: Schema.Struct({ code: ErrorCode, message: Schema.String })
})
export type ErrorResponse = typeof ErrorResponse.Type
