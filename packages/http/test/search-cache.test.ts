// A search answered from the result cache through the REST edge: the same bytes as when it was run, its own quota
// headers, and what the store changed answered anew.
import { assert, describe, it } from "@effect/vitest"
import { SearchCache, SearchChanges, SearchResponse } from "@tenders/core"
import { acceptsGzip, gzipAnswers } from "@tenders/http"
import { gunzipSync } from "node:zlib"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { Effect, Layer, Option, Ref, Schema } from "effect"
import { makeTestApi } from "./support.ts"

describe("a search answered from the result cache", () => {
  it.live("is the same JSON as the answer it keeps, with the call's own quota; a store change runs it again", () =>
    Effect.gen(function* () {
      const generation = yield* Ref.make(Option.some(1))
      const changes = Layer.succeed(SearchChanges, SearchChanges.of({ generation: Ref.get(generation) }))
      const api = yield* makeTestApi(SearchCache.layer(10).pipe(Layer.provide(changes)))
      yield* api.seed([
        makeRecord({ id: "ted-200001-2026", title: "Road resurfacing works", deadline: isoFromNow(5) }),
        makeRecord({ id: "ted-200002-2026", title: "Road signs supply", deadline: isoFromNow(9) })
      ])
      const { key } = yield* api.createKey("cache@example.com", "pro")
      const search = (body: object) => api.call("POST", "/v1/tenders/search", { key, body })
      const first = yield* search({ q: "road" })
      const again = yield* search({ q: "road" })
      assert.strictEqual(first.status, 200)
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.headers.get("content-type"), "application/json")
      assert.strictEqual(again.text, first.text)
      // The contract's encoding of the answer, cards in deadline order.
      const decoded = Schema.decodeUnknownSync(SearchResponse)(again.json)
      assert.deepStrictEqual(Schema.encodeSync(SearchResponse)(decoded), first.json as never)
      assert.deepStrictEqual(
        decoded.results.map((card) => card.id),
        ["ted-200001-2026", "ted-200002-2026"]
      )
      // Each call is counted, the one answered from the cache too.
      const remaining = (headers: Headers) => Number(/;r=(\d+);/u.exec(headers.get("ratelimit") ?? "")?.[1])
      assert.strictEqual(remaining(first.headers) - remaining(again.headers), 1)
      // The store changed: the next answer is run again and has the new tender.
      yield* api.seed([makeRecord({ id: "ted-200003-2026", title: "Road lighting", deadline: isoFromNow(2) })])
      yield* Ref.set(generation, Option.some(2))
      const changed = yield* search({ q: "road" })
      assert.deepStrictEqual(
        (changed.json as SearchResponse).results.map((card) => card.id),
        ["ted-200003-2026", "ted-200001-2026", "ted-200002-2026"]
      )
    })
  )

  it.live("kept gzipped: a client that accepts gzip gets the kept bytes, another the JSON, the same answer", () =>
    Effect.gen(function* () {
      const changes = Layer.succeed(SearchChanges, SearchChanges.of({ generation: Effect.succeed(Option.some(1)) }))
      const api = yield* makeTestApi(SearchCache.layer(10, gzipAnswers).pipe(Layer.provide(changes)))
      yield* api.seed([
        makeRecord({ id: "ted-200011-2026", title: "Road resurfacing works", deadline: isoFromNow(5) }),
        makeRecord({ id: "ted-200012-2026", title: "Road signs — Ереван", deadline: isoFromNow(9) })
      ])
      const { key } = yield* api.createKey("gzip@example.com", "pro")
      const search = (headers: Record<string, string>) =>
        api.call("POST", "/v1/tenders/search", { key, body: { q: "road" }, headers })
      const plain = yield* search({})
      const zipped = yield* search({ "accept-encoding": "br, gzip;q=0.8" })
      const refused = yield* search({ "accept-encoding": "gzip;q=0, identity" })
      assert.strictEqual(plain.headers.get("content-encoding"), null)
      assert.strictEqual(refused.headers.get("content-encoding"), null)
      assert.strictEqual(zipped.headers.get("content-encoding"), "gzip")
      for (const answer of [plain, zipped, refused]) {
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(answer.headers.get("content-type"), "application/json")
        assert.strictEqual(answer.headers.get("vary"), "Accept-Encoding")
      }
      const unzipped = new TextDecoder().decode(gunzipSync(zipped.bytes))
      assert.strictEqual(unzipped, plain.text)
      assert.strictEqual(refused.text, plain.text)
      assert.isBelow(zipped.bytes.length, plain.bytes.length)
      assert.deepStrictEqual((plain.json as SearchResponse).results.map((card) => card.id).toSorted(), [
        "ted-200011-2026",
        "ted-200012-2026"
      ])
    })
  )

  it("packs an answer into bytes of its own size, which unpack to the JSON", () => {
    const json = new TextEncoder().encode(JSON.stringify({ results: [{ id: "ted-1-2026", title: "Road works" }] }))
    const packed = gzipAnswers.pack(json)
    // A kept answer holds only its bytes, not the chunk zlib wrote them in.
    assert.strictEqual(packed.buffer.byteLength, packed.byteLength)
    assert.deepStrictEqual(new Uint8Array(gzipAnswers.unpack(packed)), json)
  })

  it("packs an answer larger than zlib's output chunk whole", () => {
    // Ids that do not repeat: their gzip takes several of the packing's 2 KB chunks.
    const results = Array.from({ length: 400 }, (_, i) => ({ id: `ted-${(i * 7919) % 99991}-2026`, n: i * i }))
    const json = new TextEncoder().encode(JSON.stringify({ results }))
    const packed = gzipAnswers.pack(json)
    assert.isAbove(packed.byteLength, 2048)
    assert.strictEqual(packed.buffer.byteLength, packed.byteLength)
    assert.deepStrictEqual(new Uint8Array(gzipAnswers.unpack(packed)), json)
  })

  it("accepts gzip by Accept-Encoding's codings and q-values", () => {
    assert.isTrue(acceptsGzip("gzip"))
    assert.isTrue(acceptsGzip("gzip, deflate, br"))
    assert.isTrue(acceptsGzip("br;q=1.0, GZIP;q=0.5"))
    assert.isTrue(acceptsGzip("x-gzip"))
    assert.isTrue(acceptsGzip("*;q=0.1"))
    assert.isFalse(acceptsGzip(undefined))
    assert.isFalse(acceptsGzip(""))
    assert.isFalse(acceptsGzip("identity"))
    assert.isFalse(acceptsGzip("br, deflate"))
    assert.isFalse(acceptsGzip("gzip;q=0"))
    assert.isFalse(acceptsGzip("gzip;q=zero"))
    // A coding refused by name stays refused, whatever `*` says.
    assert.isFalse(acceptsGzip("gzip;q=0, *"))
    assert.isTrue(acceptsGzip("identity;q=0, *"))
  })
})
