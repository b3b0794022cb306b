import { assert, describe, it } from "@effect/vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Rates, TenderStore, toSearchQuery } from "@tenders/core"
import { makeRecord } from "@tenders/core/testing"
import { SearchTextLive } from "@tenders/search-text"
import { Deferred, Effect, Fiber, Layer } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { TestClock } from "effect/testing"
import * as Path from "node:path"
import { embeddedClientConfig, SOCKET_NAME } from "../src/embedded/EmbeddedPostgres.ts"
import { layerStore } from "../src/index.ts"
import { tempDir } from "./embedded-wire.ts"

/** A turn of the event loop: what the in-process socket server has been sent by then, it has read. */
const nextTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("embedded PGlite: a search's transaction and the statistics", () => {
  it.effect("a search in its transaction does not wait for statistics another search reads again", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const store = layerStore({ databaseUrl: undefined, dataDir: dir }).pipe(
        Layer.provideMerge(SearchTextLive),
        Layer.provideMerge(Rates.bundled)
      )
      yield* Effect.gen(function* () {
        const tenders = yield* TenderStore
        // More tenders have "boiler" than a candidate window: its search runs in a transaction (RankedSearch.ts).
        yield* tenders.upsert(
          Array.from({ length: 120 }, (_, i) => makeRecord({ id: `ted-boiler-${i}`, title: `Boiler ${i} repair` }))
        )
        yield* tenders.refreshStatistics
        const query = yield* toSearchQuery({ q: "boiler" }, 10, "as typed")
        yield* tenders.search(query) // the statistics read, for a minute

        // Another client holds the session, so that what the searches send queues in a known order.
        const other = yield* PgClient.makeClient(embeddedClientConfig(Path.join(dir, SOCKET_NAME))).pipe(
          Effect.provide(Reactivity.layer)
        )
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(
          other.withTransaction(Effect.andThen(Deferred.succeed(holding, undefined), Deferred.await(release)))
        )
        yield* Deferred.await(holding)

        const ended: Array<string> = []
        // The first search finds the statistics fresh and queues its transaction's BEGIN; then they expire, and the
        // second search reads them again, outside any transaction: its statement queues after that BEGIN.
        const first = yield* Effect.forkChild(
          Effect.tap(tenders.search(query), () => Effect.sync(() => ended.push("first")))
        )
        yield* nextTurn
        yield* nextTurn
        yield* TestClock.adjust("2 minutes")
        const second = yield* Effect.forkChild(
          Effect.tap(tenders.search(query), () => Effect.sync(() => ended.push("second")))
        )
        yield* nextTurn
        yield* nextTurn
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)

        // Had the first search read the statistics inside its transaction, it would wait for the second's reading,
        // which waits for the session the first holds: neither would end.
        const [a, b] = yield* Effect.all([Fiber.join(first), Fiber.join(second)])
        assert.strictEqual(a.tenders.length, 10)
        assert.strictEqual(b.tenders.length, 10)
        assert.deepStrictEqual(ended, ["first", "second"])
      }).pipe(Effect.provide(store))
    }).pipe(Effect.scoped)
  )
})
