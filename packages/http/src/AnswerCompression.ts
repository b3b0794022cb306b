import { type AnswerPacking, answerJson, type ExplainedSearch, weightedEntries } from "@tenders/core"
import { HttpServerResponse } from "effect/http"
import { gunzipSync, gzipSync } from "node:zlib"

/**
 * zlib's output chunk when packing an answer. Each chunk is cut from Buffer's pool (64 KB slabs on Node 24), and with
 * zlib's default 16 KB every fourth answer packed took a new slab, freed once the bytes were copied out; the kept
 * answers' copies, allocated between those slabs, kept the C library from giving the freed memory back. Packing 4,000
 * answers of ten cards and keeping them grew a process's RSS by 19 KB an answer with 16 KB chunks, 11 with 8 KB, 5
 * with 2 KB (the answers' JSON and objects included), and 2 KB packed a third faster.
 */
const packChunk = 2048

/**
 * Search answers kept gzip-compressed (the result cache's packing in `serve`): an answer's JSON takes about a quarter
 * of its bytes (3.3 KB to 0.9 on the bench's answers). The packed bytes, which the cache keeps, are copied out of
 * zlib's output, a view of its chunk however little it holds; the unpacked JSON is written or decoded once and let
 * go, so it is not.
 */
export const gzipAnswers: AnswerPacking = {
  encoding: "gzip",
  pack: (json) => Uint8Array.from(gzipSync(json, { chunkSize: packChunk })),
  unpack: (packed) => gunzipSync(packed)
}

/**
 * Whether `Accept-Encoding` accepts gzip: `gzip` (or `x-gzip`) with a q-value above 0, else, when neither is named,
 * `*` with one (a coding named with q=0 is refused whatever `*` says).
 */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => {
  const codings = weightedEntries(acceptEncoding)
  const named = codings.find((coding) => coding.value === "gzip" || coding.value === "x-gzip")
  return named === undefined ? codings.some((coding) => coding.value === "*" && coding.q > 0) : named.q > 0
}

/**
 * A search's answer as REST writes it: the kept bytes as they are when they are gzip and the client accepts gzip
 * (`Content-Encoding: gzip`), else the JSON. Either way `Vary: Accept-Encoding`, so a cache between them keeps the two
 * apart. A text body would be measured and encoded again at each response; these are bytes already.
 */
export const searchAnswerResponse = (answer: ExplainedSearch, acceptEncoding: string | undefined) =>
  answer.packing.encoding === "gzip" && acceptsGzip(acceptEncoding)
    ? HttpServerResponse.uint8Array(answer.bytes, {
        contentType: "application/json",
        headers: { "content-encoding": "gzip", vary: "Accept-Encoding" }
      })
    : HttpServerResponse.uint8Array(answerJson(answer), {
        contentType: "application/json",
        headers: { vary: "Accept-Encoding" }
      })
