// A search answered from the result cache through the REST edge: the same bytes as when it was run, its own quota
// headers, and what the store changed answered anew.
import { assert, describe, it } from "@effect/vitest"
import { SearchCache, SearchChanges, SearchResponse } from "@tenders/core"
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
})
