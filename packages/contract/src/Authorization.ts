import type { CallContext } from "@tenders/core"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { QuotaExceededError, UnauthorizedError } from "./ErrorBody.ts"

/** The authenticated caller of the current request. */
export class CurrentCaller extends Context.Service<CurrentCaller, CallContext>()("@tenders/contract/CurrentCaller") {}

/** Bearer authentication with a REST key, then the monthly quota (401, 429). */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentCaller }>()(
  "@tenders/contract/Authorization",
  {
    requiredForClient: true,
    security: { bearer: HttpApiSecurity.bearer },
    error: [UnauthorizedError, QuotaExceededError]
  }
) {}
