import { DateTime, Effect, Option, Schema } from "effect"
import { InvalidInput, NotFound } from "../Errors.ts"
import type { Plan } from "../Plan.ts"
import { TenderStore } from "../ports/TenderStore.ts"
import { TenderId } from "../Tender.ts"
import { toFullTender } from "../TenderRead.ts"

const plausibleId = /^[A-Za-z0-9._-]{1,256}$/u

/** The full card of one tender of any status (spec: GET /v1/tenders/{id}). */
export const getTender = Effect.fn("getTender")(function* (id: string, plan: Plan) {
  if (!plausibleId.test(id)) {
    return yield* new InvalidInput({
      message: "id: a tender id is 1-256 characters of letters, digits, '.', '_' or '-', as given in search results"
    })
  }
  const store = yield* TenderStore
  const tenderId = Schema.decodeUnknownOption(TenderId)(id)
  const found = Option.isSome(tenderId) ? yield* store.get(tenderId.value) : Option.none()
  if (Option.isNone(found)) return yield* new NotFound({ message: `No tender with id "${id}".` })
  return toFullTender(found.value, plan, yield* DateTime.now)
})
