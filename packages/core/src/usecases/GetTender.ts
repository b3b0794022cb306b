import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../Errors.ts"
import type { Plan } from "../Plan.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import type { TenderId } from "../Tender.ts"
import { toFullTender } from "../TenderRead.ts"

/**
 * The full card of one tender of any status (spec: GET /v1/tenders/{id}); the edge decoded the id. The caller's plan
 * is asked for once the tender is read: on REST the call is still being authorized while it is read.
 */
export const getTender = Effect.fn("getTender")(function* <R>(id: TenderId, planOf: Effect.Effect<Plan, never, R>) {
  const found = yield* (yield* TenderStore).get(id)
  if (Option.isNone(found)) return yield* new NotFound({ message: `No tender with id "${id}".` })
  const plan = yield* planOf
  return toFullTender(found.value, plan, yield* DateTime.now)
})
