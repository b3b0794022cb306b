import { DateTime, Effect, Option, Schema } from "effect"
import { type HintInput, SearchResponse } from "../Search.ts"
import { parseInstant } from "../Time.ts"

/**
 * How an answer's JSON is packed: as it is (`identity`), or compressed by the platform (`gzip`, the HTTP content
 * coding of the same name, so that REST can send the packed bytes to a client that accepts them).
 */
export interface AnswerPacking {
  readonly encoding: "identity" | "gzip"
  readonly pack: (json: Uint8Array) => Uint8Array
  readonly unpack: (packed: Uint8Array) => Uint8Array
}

/** The JSON as it is: an answer not kept, and the cache's packing where the platform compresses nothing. */
export const unpackedAnswers: AnswerPacking = { encoding: "identity", pack: (json) => json, unpack: (packed) => packed }

/**
 * A search's answer as the result cache keeps it (`SearchCache`): its JSON as the contract encodes it, UTF-8 bytes,
 * packed as `packing` says (the cache keeps them compressed where the platform can: about a quarter of the bytes;
 * REST sends them as they are to a client that accepts gzip); what
 * its hint was made from (a page in another language says the same in its words); and when it could first change with
 * no write to the store.
 * Its cards are not kept as objects: beside their JSON, a server's 1,000 kept answers' cards held about 5 MB more of
 * its heap; a caller that reads them (the dashboard, MCP, the CLI) decodes them from the JSON (`searchResponseOf`).
 */
export interface ExplainedSearch {
  readonly bytes: Uint8Array
  readonly packing: AnswerPacking
  readonly notes: HintInput
  /**
   * The first instant it could change with no write (epoch milliseconds; Infinity when none): its first result's
   * deadline (a closed tender leaves the results; none comes into them by time alone), or a source's status turning
   * `stalled` (`statusChangesAt`).
   */
  readonly changesAt: number
}

const encodeResponse = Schema.encodeEffect(SearchResponse)
const decodeResponse = Schema.decodeUnknownSync(SearchResponse)
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

/**
 * An answer made of a search's response, encoded once by the contract's schema; `sourcesChangeAt` is when the
 * sources' health it says could change (`statusChangesAt`).
 */
export const explainSearch = (
  response: SearchResponse,
  notes: HintInput,
  sourcesChangeAt: number
): Effect.Effect<ExplainedSearch> =>
  Effect.map(Effect.orDie(encodeResponse(response)), (encoded) => {
    let changesAt = sourcesChangeAt
    for (const card of response.results) {
      const deadline = card.deadline === null ? Option.none() : parseInstant(card.deadline)
      if (Option.isSome(deadline)) changesAt = Math.min(changesAt, DateTime.toEpochMillis(deadline.value))
    }
    return { bytes: utf8.encode(JSON.stringify(encoded)), packing: unpackedAnswers, notes, changesAt }
  })

/** An answer packed as `packing` says (the answer itself when it is packed so already). */
export const packAnswer = (answer: ExplainedSearch, packing: AnswerPacking): ExplainedSearch =>
  answer.packing === packing ? answer : { ...answer, bytes: packing.pack(answerJson(answer)), packing }

/** An answer's JSON, UTF-8 bytes (unpacked). */
export const answerJson = (answer: ExplainedSearch): Uint8Array => answer.packing.unpack(answer.bytes)

/** An answer's response, decoded from its JSON. */
export const searchResponseOf = (answer: ExplainedSearch): SearchResponse =>
  decodeResponse(JSON.parse(fromUtf8.decode(answerJson(answer))))
