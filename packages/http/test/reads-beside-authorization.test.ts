import { assert, describe, it } from "@effect/vitest"
import { AccountStore, TenderStore } from "@tenders/core"
import { AccountStoreMemory, makeRecord, TenderStoreMemory } from "@tenders/core/testing"
import { Effect, Latch, Layer } from "effect"
import { errorOf, makeTestApi } from "./support.ts"

/**
 * The in-memory stores, with what they were asked written down in order, and a key's statement that waits for its
 * call's tender read to start before it answers: beside the read (which the handler, started at once, sends first) it
 * is answered at once; before it (one statement after the other, as an endpoint that does not read beside the
 * authorization goes) only once its wait gives up, 2 s later, and the order written down tells the two apart.
 */
const recordedStores = Effect.gen(function* () {
  const events: Array<string> = []
  const readStarted = yield* Latch.make()
  const accounts = Layer.effect(
    AccountStore,
    Effect.map(AccountStore, (inner) =>
      AccountStore.of({
        ...inner,
        authenticateAndCount: (...args) =>
          Effect.sync(() => events.push("authorization started")).pipe(
            Effect.andThen(readStarted.await.pipe(Effect.timeoutOption("2 seconds"))),
            Effect.andThen(inner.authenticateAndCount(...args)),
            Effect.tap(() => Effect.sync(() => events.push("authorization decided"))),
            Effect.tap(() => readStarted.close)
          )
      })
    )
  ).pipe(Layer.provide(AccountStoreMemory))
  const tenders = Layer.effect(
    TenderStore,
    Effect.map(TenderStore, (inner) =>
      TenderStore.of({
        ...inner,
        get: (id) =>
          Effect.sync(() => events.push("tender read")).pipe(
            Effect.andThen(readStarted.open),
            Effect.andThen(inner.get(id))
          )
      })
    )
  ).pipe(Layer.provide(TenderStoreMemory))
  return { events, layer: Layer.mergeAll(accounts, tenders) }
})

/** The API over `recordedStores`, one tender stored (`ted-1-2026`), and a Pro key with `limit` calls a month. */
const apiWithKey = (limit: number) =>
  Effect.gen(function* () {
    const { events, layer } = yield* recordedStores
    const api = yield* makeTestApi(layer)
    yield* api.seed([makeRecord({ id: "ted-1-2026" })])
    const { key } = yield* api.createKey("beside@example.com", "pro", "rest", limit)
    return { events, api, key }
  })

describe("a tender read beside the authorization (ReadsBesideAuthorization)", () => {
  it.live("reads the tender while the key's statement runs, and answers once the call is authorized", () =>
    Effect.gen(function* () {
      const { events, api, key } = yield* apiWithKey(10)
      const res = yield* api.call("GET", "/v1/tenders/ted-1-2026", { key })
      assert.strictEqual(res.status, 200)
      assert.strictEqual((res.json as { id: string }).id, "ted-1-2026")
      assert.deepStrictEqual(events, ["tender read", "authorization started", "authorization decided"])
      assert.match(res.headers.get("ratelimit") ?? "", /^"monthly";r=9;t=\d+$/u)
    }).pipe(Effect.scoped)
  )

  it.live("answers 401 for an unknown key and 429 past the quota, whatever the read found, and no tender", () =>
    Effect.gen(function* () {
      const { events, api, key } = yield* apiWithKey(1)
      const unknown = `${key.slice(0, -4)}${key.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`
      const answers = [
        yield* api.call("GET", "/v1/tenders/ted-1-2026", { key: unknown }),
        yield* api.call("GET", "/v1/tenders/ted-2-2026", { key: unknown }),
        yield* api.call("GET", "/v1/tenders/ted-1-2026", { key }),
        yield* api.call("GET", "/v1/tenders/ted-1-2026", { key }),
        yield* api.call("GET", "/v1/tenders/ted-2-2026", { key })
      ]
      assert.deepStrictEqual(
        answers.map((res) => [res.status, res.status === 200 ? "tender" : errorOf(res.json).code]),
        [
          [401, "unauthorized"],
          [401, "unauthorized"],
          [200, "tender"],
          [429, "quota_exceeded"],
          [429, "quota_exceeded"]
        ]
      )
      // Each call's tender was read (or found missing) before its authorization was decided; a refused call's was let
      // go, and a missing one's 404 did not come before the refusal.
      assert.deepStrictEqual(
        events,
        Array.from({ length: 5 }, () => ["tender read", "authorization started", "authorization decided"]).flat()
      )
    }).pipe(Effect.scoped)
  )

  it.live("still authorizes first where the endpoint does not read beside it (a search)", () =>
    Effect.gen(function* () {
      const { events, api, key } = yield* apiWithKey(10)
      const res = yield* api.call("POST", "/v1/tenders/search", { key, body: { q: "road" } })
      assert.strictEqual(res.status, 200)
      assert.deepStrictEqual(events.slice(0, 2), ["authorization started", "authorization decided"])
    }).pipe(Effect.scoped)
  )
})
