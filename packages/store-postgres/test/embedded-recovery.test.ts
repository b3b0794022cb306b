import { assert, describe, it } from "@effect/vitest"
import { PGlite } from "@electric-sql/pglite"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Exit, Fiber, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import { SqlError } from "effect/sql/SqlError"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import {
  acquireEmbedded,
  backupEmbedded,
  embeddedClientConfig,
  layerEmbedded,
  restoreEmbedded,
  SOCKET_NAME
} from "../src/embedded/EmbeddedPostgres.ts"
import { describeCause } from "../src/embedded/EmbeddedStoreError.ts"
import {
  connectRaw,
  exchange,
  rawSession,
  reply,
  serverWithDisk,
  simpleQuery,
  startupMessage,
  tempDir
} from "./embedded-wire.ts"

/** Polls until nothing accepts connections on `path` any more (a stopping server closed its listener). */
const refusesConnections = (path: string) =>
  Effect.callback<boolean>((resume) => {
    const socket = Net.connect({ path })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(false))
    })
    socket.once("error", () => resume(Effect.succeed(true)))
  }).pipe(Effect.repeat({ until: (refused) => refused, times: 1000 }))

const sqlStateOf = (error: unknown) =>
  error instanceof SqlError && error.reason.cause instanceof Error && "code" in error.reason.cause
    ? error.reason.cause.code
    : undefined

/**
 * An owner of a fresh embedded store (closed through `ownerScope`) with a table `counter` (one row, n = 0), and a
 * raw session to hold the session with.
 */
const counterOwned = Effect.gen(function* () {
  const dir = yield* tempDir
  const ownerScope = yield* Scope.make()
  const { path } = yield* acquireEmbedded(dir).pipe(Scope.provide(ownerScope))
  const setup = yield* rawSession(path)
  yield* exchange(setup, simpleQuery("CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)"))
  yield* exchange(setup, simpleQuery("INSERT INTO counter VALUES (1, 0)"))
  const holder = yield* rawSession(path)
  return { dir, ownerScope, path, holder }
})

// `it.live`: the store waits and retries on the real clock (a TestClock would never let it go on).
describe("embedded PGlite recovers", () => {
  it.live("a stopping owner lets the open transaction commit, and a waiting statement gets 57P01 and never runs", () =>
    Effect.gen(function* () {
      const { dir, ownerScope, path, holder } = yield* counterOwned
      assert.strictEqual(yield* exchange(holder, simpleQuery("BEGIN; UPDATE counter SET n = n + 1")), "T")
      const waiting = yield* connectRaw(path)
      const waited = yield* Effect.forkChild(
        reply(waiting, Buffer.concat([startupMessage(), simpleQuery("UPDATE counter SET n = n + 100")]))
      )

      const stopping = yield* Effect.forkChild(Scope.close(ownerScope, Exit.void))
      yield* refusesConnections(path)
      assert.strictEqual(yield* exchange(holder, simpleQuery("UPDATE counter SET n = n + 1; COMMIT")), "I")
      const answer = yield* Fiber.join(waited)
      assert.deepStrictEqual(
        answer.errors.map((e) => [e.severity, e.code]),
        [["FATAL", "57P01"]]
      )
      assert.isTrue(answer.closed)
      yield* Fiber.join(stopping)

      const again = yield* acquireEmbedded(dir)
      const sql = yield* PgClient.makeClient(embeddedClientConfig(again.path))
      assert.deepStrictEqual(yield* sql`SELECT n FROM counter`, [{ n: 2 }])
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.live("a statement waiting on a stopping owner is sent again to the next owner by the client, and runs once", () =>
    Effect.gen(function* () {
      const { dir, ownerScope, path, holder } = yield* counterOwned
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        assert.deepStrictEqual(yield* sql`SELECT n FROM counter`, [{ n: 0 }]) // the client's connection is open
        assert.strictEqual(yield* exchange(holder, simpleQuery("BEGIN; UPDATE counter SET n = n + 1")), "T")
        // The statement waits for the holder's turn; the owner stops, and its answer is a FATAL 57P01.
        const waiting = yield* Effect.forkChild(sql`UPDATE counter SET n = n + 100`)
        const stopping = yield* Effect.forkChild(Scope.close(ownerScope, Exit.void))
        yield* refusesConnections(path)
        assert.strictEqual(yield* exchange(holder, simpleQuery("UPDATE counter SET n = n + 1; COMMIT")), "I")
        yield* Fiber.join(stopping)
        yield* Fiber.join(waiting)
        assert.deepStrictEqual(yield* sql`SELECT n FROM counter`, [{ n: 102 }])
      }).pipe(Effect.provide(layerEmbedded(dir)))
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.live("when PGlite's backend ends (COPY FROM STDIN in a transaction), it is reopened and clients go on", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = Path.join(dir, SOCKET_NAME)
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
        yield* sql`INSERT INTO notes VALUES (1)`
        const idle = yield* rawSession(path)
        const ending = yield* rawSession(path)
        const ended = yield* reply(ending, simpleQuery("BEGIN; COPY notes FROM STDIN"))
        assert.include(
          ended.errors.map((e) => e.severity),
          "FATAL"
        )
        if (!ended.closed) assert.isTrue((yield* reply(ending)).closed)
        const dropped = yield* reply(idle)
        assert.deepStrictEqual(
          dropped.errors.map((e) => e.code),
          ["57P01"]
        )
        yield* sql`INSERT INTO notes VALUES (2)`
        assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS c FROM notes`, [{ c: 2 }])
      }).pipe(Effect.provide(layerEmbedded(dir)))
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.live("COPY FROM STDIN is refused (0A000) without ending the backend, and a SET stays with its connection", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
        const outsider = yield* rawSession(Path.join(dir, SOCKET_NAME))
        const copy = yield* reply(outsider, simpleQuery("COPY notes FROM STDIN"))
        assert.deepStrictEqual(
          copy.errors.map((e) => e.code),
          ["0A000"]
        )
        assert.strictEqual(copy.status, "I")
        assert.strictEqual(yield* exchange(outsider, simpleQuery("SET search_path = ''")), "I")
        assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS c FROM notes`, [{ c: 0 }])
      }).pipe(Effect.provide(layerEmbedded(dir)))
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.live("while writes may not start (a full disk) the session is read-only: writes fail with 25006, reads work", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = Path.join(dir, SOCKET_NAME)
      const { server, disk } = yield* serverWithDisk(path)
      const db = yield* Effect.acquireRelease(
        Effect.promise(() => PGlite.create(Path.join(dir, "pglite"))),
        (db) => Effect.promise(() => db.close())
      )
      server.attach(db)
      const sql = yield* PgClient.makeClient(embeddedClientConfig(path))
      yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
      yield* sql`INSERT INTO notes VALUES (1)`
      disk.room = false
      const refused = yield* Effect.flip(sql`INSERT INTO notes VALUES (2)`)
      assert.strictEqual(sqlStateOf(refused), "25006")
      assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS c FROM notes`, [{ c: 1 }])
      disk.room = true
      yield* sql`INSERT INTO notes VALUES (2)`
      assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS c FROM notes`, [{ c: 2 }])
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.live(
    "a backup waits for the open transaction; restore refuses an owned data directory and a store unless forced",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const file = Path.join(dir, "backup.tar.gz")
        const { path } = yield* acquireEmbedded(Path.join(dir, "data"))
        const sql = yield* PgClient.makeClient(embeddedClientConfig(path))
        yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
        yield* sql`INSERT INTO notes VALUES (1)`
        const writer = yield* rawSession(path)
        assert.strictEqual(yield* exchange(writer, simpleQuery("BEGIN; INSERT INTO notes VALUES (2)")), "T")
        const backup = yield* Effect.forkChild(backupEmbedded(Path.join(dir, "data"), file))
        assert.strictEqual(yield* exchange(writer, simpleQuery("INSERT INTO notes VALUES (3); ROLLBACK")), "I")
        assert.isAbove((yield* Fiber.join(backup)).bytes, 0)

        const owned = yield* Effect.flip(restoreEmbedded(Path.join(dir, "data"), file, { force: true }))
        assert.match(owned.message, /is in use by process \d+/u)
        const copy = Path.join(dir, "copy")
        yield* restoreEmbedded(copy, file, { force: false })
        const exists = yield* Effect.flip(restoreEmbedded(copy, file, { force: false }))
        assert.include(exists.message, "holds a store already")
        const forced = yield* restoreEmbedded(copy, file, { force: true })
        assert.isTrue(forced.replaced !== undefined && Fs.existsSync(forced.replaced))
        const rows = yield* Effect.gen(function* () {
          const restored = yield* acquireEmbedded(copy)
          const client = yield* PgClient.makeClient(embeddedClientConfig(restored.path))
          return yield* client<{ id: number }>`SELECT id FROM notes ORDER BY id`
        }).pipe(Effect.scoped)
        assert.deepStrictEqual(rows, [{ id: 1 }])
      }).pipe(Effect.provide(Reactivity.layer))
  )

  it("puts PGlite's file system errors (plain objects) and other throws in words", () => {
    assert.strictEqual(describeCause({ name: "ErrnoError", errno: 51 }), "ENOSPC: no space left on device")
    assert.strictEqual(describeCause({ name: "ErrnoError", errno: 7 }), "file system error 7 (Emscripten errno)")
    assert.strictEqual(
      describeCause({ name: "ExitStatus", message: "Program terminated with exit(1)" }),
      "Program terminated with exit(1)"
    )
    assert.strictEqual(describeCause(new Error("boom")), "boom")
    assert.strictEqual(describeCause({ some: "thing" }), '{"some":"thing"}')
  })
})
