import { type Quota, type QuotaExceeded, quotaOfRefusal } from "@tenders/core"
import { Context, Duration, Option, Result, Schema } from "effect"
import { Headers } from "effect/http"

/**
 * Whether a call to an endpoint counts against the monthly quota: an endpoint annotation the authorization reads
 * (DESIGN §4: every authenticated call counts, except reading `/v1/openapi.json`).
 */
export const CountsAgainstQuota = Context.Reference<boolean>("@tenders/contract/CountsAgainstQuota", {
  defaultValue: () => true
})

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10) of the monthly quota. */
export const rateLimitHeaders = (
  quota: Quota
): { readonly ratelimit: string; readonly "ratelimit-policy": string } => ({
  "ratelimit-policy": `"monthly";q=${quota.limit}`,
  ratelimit: `"monthly";r=${quota.remaining};t=${quota.resetSeconds}`
})

/** The header fields of a 429 quota_exceeded: the RateLimit fields and `Retry-After` (seconds). */
export const RefusalHeaders = {
  "retry-after": Schema.optionalKey(Schema.String),
  ratelimit: Schema.optionalKey(Schema.String),
  "ratelimit-policy": Schema.optionalKey(Schema.String)
}

type RefusalHeaders = Schema.Struct.Type<typeof RefusalHeaders>

/** The headers of a refusal; none when it does not carry its figures. */
export const refusalHeaders = (error: QuotaExceeded): RefusalHeaders =>
  Option.match(quotaOfRefusal(error), {
    onNone: () => ({}),
    onSome: (quota) => ({ ...rateLimitHeaders(quota), "retry-after": String(quota.resetSeconds) })
  })

/** A `Retry-After` delay in whole seconds (Effect's parser; an HTTP date is not a quota's reset). */
const retryAfterSeconds = (value: string): Option.Option<number> =>
  Option.flatMap(Result.getSuccess(Headers.parseRetryAfter(value)), (retryAfter) =>
    retryAfter._tag === "Duration" ? Option.some(Math.ceil(Duration.toSeconds(retryAfter.duration))) : Option.none()
  )

const parameter = (field: string | undefined, name: string): Option.Option<number> =>
  Option.map(Option.fromNullishOr(new RegExp(`;\\s*${name}=(\\d+)`, "u").exec(field ?? "")?.[1]), Number)

/** A refusal's figures as a client reads them back from the headers; a figure it cannot read stays absent. */
export const refusalFigures = (
  headers: RefusalHeaders
): { readonly limit?: number; readonly resetSeconds?: number } => {
  const limit = parameter(headers["ratelimit-policy"], "q")
  const reset = Option.orElse(parameter(headers.ratelimit, "t"), () =>
    Option.flatMap(Option.fromNullishOr(headers["retry-after"]), retryAfterSeconds)
  )
  return {
    ...Option.match(limit, { onNone: () => ({}), onSome: (value) => ({ limit: value }) }),
    ...Option.match(reset, { onNone: () => ({}), onSome: (value) => ({ resetSeconds: value }) })
  }
}
