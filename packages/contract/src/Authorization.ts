import type { CallContext } from "@tenders/core"
import { Context, Effect } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { QuotaExceededError, UnauthorizedError } from "./ErrorBody.ts"

/**
 * The authenticated caller of the current request, once its call is authorized (`currentCaller`): an effect, because
 * the handler of an endpoint that `ReadsBesideAuthorization` starts before the decision and waits here for it.
 */
export class CurrentCaller extends Context.Service<CurrentCaller, Effect.Effect<CallContext>>()(
  "@tenders/contract/CurrentCaller"
) {}

/** The caller of the current request: waits for its call to be authorized where the handler started beside it. */
export const currentCaller: Effect.Effect<CallContext, never, CurrentCaller> = Effect.flatten(CurrentCaller)

/**
 * Whether an endpoint's handler starts while its call is being authorized: what it reads before it asks for the
 * caller (`currentCaller`) then goes to the store beside the key's statement, not after it (a tender read: one wait on
 * the store instead of two). Its answer, success or error, is given only once the call is authorized, and an
 * authorization that fails stops it and answers 401 or 429 as it would have; so a handler opted in must read, not
 * write, before it asks for the caller. Off unless annotated.
 */
export const ReadsBesideAuthorization = Context.Reference<boolean>("@tenders/contract/ReadsBesideAuthorization", {
  defaultValue: () => false
})

/** Bearer authentication with a REST key, then the monthly quota (401, 429). */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentCaller }>()(
  "@tenders/contract/Authorization",
  {
    requiredForClient: true,
    security: { bearer: HttpApiSecurity.bearer },
    error: [UnauthorizedError, QuotaExceededError]
  }
) {}
