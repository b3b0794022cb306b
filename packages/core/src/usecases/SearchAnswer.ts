import { DateTime, Effect, Option, Schema } from "effect"
import { type HintInput, SearchResponse } from "../Search.ts"
import { parseInstant } from "../Time.ts"

/**
 * A search's answer as the result cache keeps it (`SearchCache`): its JSON as the contract encodes it, UTF-8 bytes
 * that REST writes as they are; what its hint was made from (a page in another language says the same in its
 * words); and when its first result closes. Its cards are not kept as objects: beside their JSON, a server's 1,000
 * kept answers' cards held about 5 MB more of its heap; a caller that reads them (the dashboard, MCP, the CLI)
 * decodes them from the JSON (`searchResponseOf`).
 */
export interface ExplainedSearch {
  readonly json: Uint8Array
  readonly notes: HintInput
  /** The earliest deadline of its results, in epoch milliseconds (Infinity when none has one). */
  readonly firstDeadline: number
}

const encodeResponse = Schema.encodeEffect(SearchResponse)
const decodeResponse = Schema.decodeUnknownSync(SearchResponse)
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

/** An answer made of a search's response, encoded once by the contract's schema. */
export const explainSearch = (response: SearchResponse, notes: HintInput): Effect.Effect<ExplainedSearch> =>
  Effect.map(Effect.orDie(encodeResponse(response)), (encoded) => {
    let firstDeadline = Infinity
    for (const card of response.results) {
      const deadline = card.deadline === null ? Option.none() : parseInstant(card.deadline)
      if (Option.isSome(deadline)) firstDeadline = Math.min(firstDeadline, DateTime.toEpochMillis(deadline.value))
    }
    return { json: utf8.encode(JSON.stringify(encoded)), notes, firstDeadline }
  })

/** An answer's response, decoded from its JSON. */
export const searchResponseOf = (answer: ExplainedSearch): SearchResponse =>
  decodeResponse(JSON.parse(fromUtf8.decode(answer.json)))
