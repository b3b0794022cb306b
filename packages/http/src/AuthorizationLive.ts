import { Authorization, CountsAgainstQuota, CurrentCaller, rateLimitHeaders } from "@tenders/contract"
import { AccountStore, authorizeCall } from "@tenders/core"
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

/**
 * Authenticates REST keys and counts calls on the endpoints the contract counts. Every response to an authorized
 * call carries the RateLimit fields, whatever its status; a 429 carries them from the contract's error schema.
 */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const accounts = yield* AccountStore
    return Authorization.of({
      bearer: Effect.fn("Authorization.bearer")(function* (httpEffect, { credential, endpoint, group }) {
        const count = Context.get(Context.merge(group.annotations, endpoint.annotations), CountsAgainstQuota)
        const call = yield* authorizeCall(Redacted.value(credential), "rest", { count }).pipe(
          Effect.provideService(AccountStore, accounts)
        )
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(call)))
        )
        return yield* Effect.provideService(httpEffect, CurrentCaller, call)
      })
    })
  })
)
