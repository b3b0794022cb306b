// What the embedded store's client does when a connection breaks inside a transaction or during its COMMIT: a
// socket between the client and the owner cuts the connection at a chosen message, before or after the owner ran it.
import { assert, layer } from "@effect/vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Effect, Layer, type Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { SqlError } from "effect/sql/SqlError"
import * as Net from "node:net"
import * as Path from "node:path"
import { acquireEmbedded, embeddedClientConfig } from "../src/embedded/EmbeddedPostgres.ts"
import { makeFailoverClient } from "../src/embedded/FailoverClient.ts"
import { tempDir } from "./embedded-wire.ts"

interface Cut {
  /** Text of the frontend message to cut at (the SQL of its Parse). */
  readonly marker: string
  /** Cut the connection before passing the message on, or once the owner answered it. */
  readonly when: "before" | "after"
}

/**
 * A socket at `path` passing connections through to `target`; once armed, it cuts the next connection sending
 * `marker`.
 */
const makeCutter = (path: string, target: string) =>
  Effect.gen(function* () {
    const state: { armed: Cut | undefined; cuts: number } = { armed: undefined, cuts: 0 }
    const server = Net.createServer((client) => {
      const upstream = Net.connect({ path: target })
      let cutOnAnswer = false
      const cut = () => {
        state.cuts++
        client.destroy()
        upstream.destroy()
      }
      client.on("data", (chunk: Buffer) => {
        const armed = state.armed
        if (armed !== undefined && chunk.includes(armed.marker)) {
          state.armed = undefined
          if (armed.when === "before") return cut()
          cutOnAnswer = true
        }
        upstream.write(chunk)
      })
      upstream.on("data", (chunk: Buffer) => (cutOnAnswer ? cut() : client.write(chunk)))
      client.on("error", () => upstream.destroy())
      client.on("close", () => upstream.destroy())
      upstream.on("error", () => client.destroy())
      upstream.on("close", () => client.destroy())
    })
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => void server.listen(path, () => resume(Effect.void))),
      () => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
    )
    return {
      arm: (cut: Cut) => Effect.sync(() => (state.armed = cut)),
      /** Connections cut since the last reset. */
      cuts: Effect.sync(() => state.cuts),
      reset: Effect.sync(() => {
        state.armed = undefined
        state.cuts = 0
      })
    }
  })

/**
 * An owner of a fresh store with a table `counter`, a plain client on its socket, and failover clients through a
 * cutter (the owner stays: claiming again finds it). A cut finds its marker in a Parse, so each cut needs a fresh
 * client (a client sends the SQL of a statement it prepared before only once).
 */
class CutOwned extends Context.Service<
  CutOwned,
  {
    /** A fresh failover client through the cutter. */
    readonly client: Effect.Effect<PgClient.PgClient, SqlError, Scope.Scope>
    readonly arm: (cut: Cut) => Effect.Effect<void>
    readonly cuts: Effect.Effect<number>
    /** Counter 1 at 0, nothing armed, no cuts counted. */
    readonly reset: Effect.Effect<void, SqlError>
    /** Counter 1, as the plain client reads it. */
    readonly counter: Effect.Effect<number | undefined, SqlError>
  }
>()("test/CutOwned") {
  static readonly layer = Layer.effect(
    CutOwned,
    Effect.gen(function* () {
      const dir = yield* tempDir
      const owner = yield* acquireEmbedded(dir)
      const plain = yield* PgClient.makeClient(embeddedClientConfig(owner.path))
      yield* plain`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
      const cutPath = Path.join(dir, "cut.sock")
      const cutter = yield* makeCutter(cutPath, owner.path)
      const store = { dataDir: dir, path: () => cutPath, generation: () => 0, reclaim: () => Effect.void }
      return {
        client: makeFailoverClient(store, 2).pipe(Effect.provide(Reactivity.layer)),
        arm: cutter.arm,
        cuts: cutter.cuts,
        reset: Effect.andThen(
          plain`INSERT INTO counter VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET n = 0`,
          cutter.reset
        ),
        counter: Effect.map(plain<{ n: number }>`SELECT n FROM counter WHERE id = 1`, (rows) => rows[0]?.n)
      }
    })
  ).pipe(Layer.provide(Reactivity.layer))
}

/** A transaction adding one to the counter; `runs` counts its tries. */
const increment = (sql: PgClient.PgClient) => {
  const runs = { count: 0 }
  const transaction = sql.withTransaction(
    Effect.andThen(
      Effect.sync(() => runs.count++),
      Effect.map(sql<{ n: number }>`UPDATE counter SET n = n + 1 WHERE id = 1 RETURNING n`, (rows) => rows[0]?.n)
    )
  )
  return { runs, transaction }
}

// The live clock: the client waits between tries.
layer(CutOwned.layer, { excludeTestServices: true })("the embedded store's client when a connection breaks", (it) => {
  it.effect("inside a transaction: the owner rolls it back, and it is sent again and applied once", () =>
    Effect.gen(function* () {
      const { client, arm, cuts, reset, counter } = yield* CutOwned
      yield* reset
      const { runs, transaction } = increment(yield* client)
      yield* arm({ marker: "UPDATE counter", when: "after" })
      assert.strictEqual(yield* transaction, 1)
      assert.strictEqual(yield* cuts, 1)
      assert.strictEqual(runs.count, 2)
      assert.strictEqual(yield* counter, 1)
    })
  )

  it.effect("during a COMMIT that never reached the owner: the store says aborted, and it is sent again once", () =>
    Effect.gen(function* () {
      const { client, arm, cuts, reset, counter } = yield* CutOwned
      yield* reset
      const { runs, transaction } = increment(yield* client)
      yield* arm({ marker: "COMMIT", when: "before" })
      assert.strictEqual(yield* transaction, 1)
      assert.strictEqual(yield* cuts, 1)
      assert.strictEqual(runs.count, 2)
      assert.strictEqual(yield* counter, 1)
    })
  )

  it.effect("during a COMMIT the owner applied: the store says committed, and it is not sent again", () =>
    Effect.gen(function* () {
      const { client, arm, cuts, reset, counter } = yield* CutOwned
      yield* reset
      const { runs, transaction } = increment(yield* client)
      yield* arm({ marker: "COMMIT", when: "after" })
      assert.strictEqual(yield* transaction, 1)
      assert.strictEqual(yield* cuts, 1)
      assert.strictEqual(runs.count, 1)
      assert.strictEqual(yield* counter, 1)
    })
  )

  it.effect("running a statement outside a transaction, before or after its COMMIT: it is applied once", () =>
    Effect.gen(function* () {
      const { client, arm, cuts, reset, counter } = yield* CutOwned
      yield* reset
      yield* arm({ marker: "COMMIT", when: "after" })
      yield* (yield* client)`UPDATE counter SET n = n + 1 WHERE id = 1`
      yield* arm({ marker: "UPDATE counter", when: "after" })
      yield* (yield* client)`UPDATE counter SET n = n + 10 WHERE id = 1`
      yield* arm({ marker: "COMMIT", when: "before" })
      yield* (yield* client)`UPDATE counter SET n = n + 100 WHERE id = 1`
      assert.strictEqual(yield* cuts, 3)
      assert.strictEqual(yield* counter, 111)
    })
  )

  it.effect("a statement PostgreSQL refuses inside a transaction (VACUUM) runs on its own", () =>
    Effect.gen(function* () {
      const { client, reset } = yield* CutOwned
      yield* reset
      assert.deepStrictEqual(yield* (yield* client)`VACUUM counter`, [])
    })
  )
})
