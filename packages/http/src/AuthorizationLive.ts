import {
  Authorization,
  CountsAgainstQuota,
  CurrentCaller,
  rateLimitHeaders,
  ReadsBesideAuthorization
} from "@tenders/contract"
import { AccountStore, authorizeCall, type CallContext } from "@tenders/core"
import { Context, Deferred, Effect, Fiber, Layer, Redacted } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

/**
 * Authenticates REST keys and counts calls on the endpoints the contract counts. Every response to an authorized
 * call carries the RateLimit fields, whatever its status; a 429 carries them from the contract's error schema.
 * An endpoint that `ReadsBesideAuthorization` has its handler started beside the key's statement, waiting for the
 * caller where it asks for it; its answer is given only once the call is authorized, and a call refused stops it.
 */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const accounts = yield* AccountStore
    return Authorization.of({
      bearer: Effect.fn("Authorization.bearer")(function* (httpEffect, { credential, endpoint, group }) {
        const annotations = Context.merge(group.annotations, endpoint.annotations)
        const authorize = authorizeCall(Redacted.value(credential), "rest", {
          count: Context.get(annotations, CountsAgainstQuota)
        }).pipe(
          Effect.tap((call) =>
            HttpEffect.appendPreResponseHandler((_request, response) =>
              Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(call)))
            )
          ),
          Effect.provideService(AccountStore, accounts)
        )
        if (!Context.get(annotations, ReadsBesideAuthorization)) {
          const call = yield* authorize
          return yield* Effect.provideService(httpEffect, CurrentCaller, Effect.succeed(call))
        }
        const decided = yield* Deferred.make<CallContext>()
        // Started at once, so that its read goes to the store first; a child of this fiber, stopped with it when the
        // authorization fails (or the client goes away).
        const waiting = Effect.provideService(httpEffect, CurrentCaller, Deferred.await(decided))
        const handler = yield* Effect.forkChild(waiting, { startImmediately: true })
        yield* Deferred.succeed(decided, yield* authorize)
        return yield* Fiber.join(handler)
      })
    })
  })
)
