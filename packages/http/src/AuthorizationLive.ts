import { Authorization, CurrentCaller } from "@tenders/contract"
import { AccountStore, authorizeCall, type CallContext, secondsUntilMonthEnd } from "@tenders/core"
import { DateTime, Effect, Layer, Redacted } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

/** IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10) for the monthly quota. */
export const rateLimitHeaders = (call: Pick<CallContext, "limit" | "remaining" | "resetSeconds">) => ({
  "ratelimit-policy": `"monthly";q=${call.limit}`,
  ratelimit: `"monthly";r=${call.remaining};t=${call.resetSeconds}`
})

const uncounted = new Set(["openapi"])

/** Authenticates REST keys and counts calls; OpenAPI reads are authenticated but not counted. */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const accounts = yield* AccountStore
    return Authorization.of({
      bearer: Effect.fn("Authorization.bearer")(function* (httpEffect, { credential, endpoint }) {
        const call = yield* authorizeCall(Redacted.value(credential), "rest", {
          count: !uncounted.has(endpoint.name)
        }).pipe(
          Effect.provideService(AccountStore, accounts),
          Effect.tapError((error) =>
            error._tag === "QuotaExceeded"
              ? Effect.flatMap(DateTime.now, (now) =>
                  HttpEffect.appendPreResponseHandler((_request, response) =>
                    Effect.succeed(
                      HttpServerResponse.setHeader(response, "retry-after", String(secondsUntilMonthEnd(now)))
                    )
                  )
                )
              : Effect.void
          )
        )
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(call)))
        )
        return yield* Effect.provideService(httpEffect, CurrentCaller, call)
      })
    })
  })
)
