import { assert, describe, it } from "@effect/vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Exit, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { acquireEmbedded, embeddedClientConfig, layerEmbedded, SOCKET_NAME } from "../src/embedded/EmbeddedPostgres.ts"
import { LOCK_FILE } from "../src/embedded/LockFile.ts"
import { connectRaw, exchange, frame, startupMessage, tempDir } from "./embedded-wire.ts"

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

const exists = (path: string) => Fs.existsSync(path)

/** Runs a process to completion: exit code, stdout and stderr. */
const runProcess = (args: ReadonlyArray<string>) =>
  Effect.callback<{ code: number | null; stdout: string; stderr: string }>((resume) => {
    const child = ChildProcess.spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

describe("embedded PGlite", () => {
  it.effect("10 connections x 20 read-modify-write transactions next to the owner's connection end at 200", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const endpoint = yield* acquireEmbedded(dir)
      assert.isTrue(endpoint.owner)
      const owner = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
      yield* owner`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
      yield* owner`INSERT INTO counter VALUES (1, 0)`

      const client = (i: number) =>
        Effect.gen(function* () {
          // half of them with named prepared statements, half unnamed only
          const sql = yield* PgClient.makeClient({ ...embeddedClientConfig(endpoint.path), prepare: i % 2 === 0 })
          for (let k = 0; k < 20; k++) {
            yield* sql.withTransaction(
              Effect.gen(function* () {
                const rows = yield* sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`
                yield* sql`UPDATE counter SET n = ${rows[0]!.n + 1} WHERE id = 1`
              })
            )
          }
        }).pipe(Effect.scoped)
      const ownerReads = Effect.forEach(range(50), () => owner`SELECT n FROM counter WHERE id = 1`, { discard: true })

      yield* Effect.all([Effect.forEach(range(10), client, { concurrency: "unbounded", discard: true }), ownerReads], {
        concurrency: "unbounded"
      })

      const rows = yield* owner<{ n: number }>`SELECT n FROM counter WHERE id = 1`
      assert.strictEqual(rows[0]!.n, 200)
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("a second acquirer joins the live owner; after release a new owner sees the data", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const firstScope = yield* Scope.make()
      const first = yield* acquireEmbedded(dir).pipe(Scope.provide(firstScope))
      assert.isTrue(first.owner)
      assert.strictEqual(first.path, Path.join(dir, SOCKET_NAME))
      const ownerSql = yield* PgClient.makeClient(embeddedClientConfig(first.path)).pipe(Scope.provide(firstScope))
      yield* ownerSql`CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)`
      yield* ownerSql`INSERT INTO notes VALUES (1, 'by the first owner')`

      const second = yield* Effect.scoped(acquireEmbedded(dir))
      assert.deepStrictEqual(second, { path: first.path, owner: false })

      const seen = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO notes VALUES (2, 'by a non-owner')`
        return yield* sql<{ id: number }>`SELECT id FROM notes ORDER BY id`
      }).pipe(Effect.provide(layerEmbedded(dir)))
      assert.deepStrictEqual(
        seen.map((row) => row.id),
        [1, 2]
      )
      // the non-owner's release left the owner serving
      assert.deepStrictEqual(yield* ownerSql`SELECT count(*)::int AS c FROM notes`, [{ c: 2 }])

      yield* Scope.close(firstScope, Exit.void)
      assert.isFalse(exists(Path.join(dir, LOCK_FILE)))
      assert.isFalse(exists(first.path))

      const third = yield* Effect.gen(function* () {
        const endpoint = yield* acquireEmbedded(dir)
        const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
        return {
          owner: endpoint.owner,
          rows: yield* sql<{ id: number; body: string }>`SELECT id, body FROM notes ORDER BY id`
        }
      }).pipe(Effect.scoped)
      assert.isTrue(third.owner)
      assert.deepStrictEqual(third.rows, [
        { id: 1, body: "by the first owner" },
        { id: 2, body: "by a non-owner" }
      ])

      const viaLayer = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ c: number }>`SELECT count(*)::int AS c FROM notes`
      }).pipe(Effect.provide(layerEmbedded(dir)))
      assert.deepStrictEqual(viaLayer, [{ c: 2 }])
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("a stale lock, guard and socket file do not prevent start", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const deadPid = ChildProcess.spawnSync(process.execPath, ["-e", ""]).pid!
      const socketPath = Path.join(dir, SOCKET_NAME)
      // a socket file whose server is gone (the process exited without closing it)
      const left = ChildProcess.spawnSync(process.execPath, [
        "-e",
        `require("node:net").createServer().listen(${JSON.stringify(socketPath)}, () => process.exit(0))`
      ])
      assert.strictEqual(left.status, 0)
      assert.isTrue(Fs.lstatSync(socketPath).isSocket())
      const lockPath = Path.join(dir, LOCK_FILE)
      Fs.writeFileSync(
        lockPath,
        JSON.stringify({ pid: deadPid, socketPath, hostname: Os.hostname(), createdAt: new Date(0).toISOString() })
      )
      Fs.writeFileSync(`${lockPath}.guard`, String(deadPid))

      const endpoint = yield* acquireEmbedded(dir)
      assert.deepStrictEqual(endpoint, { path: socketPath, owner: true })
      assert.strictEqual(JSON.parse(Fs.readFileSync(lockPath, "utf8")).pid, process.pid)
      assert.isFalse(exists(`${lockPath}.guard`))
      const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
      assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }])
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("a data directory too deep for a socket path serves from a private directory under tmpdir", () =>
    Effect.gen(function* () {
      const dir = Path.join(yield* tempDir, "a-rather-long-directory-name-".repeat(3), "data")
      assert.isAbove(Buffer.byteLength(Path.join(dir, SOCKET_NAME)), 100)
      const socketPath = yield* Effect.gen(function* () {
        const endpoint = yield* acquireEmbedded(dir)
        assert.isTrue(endpoint.owner)
        assert.strictEqual(Path.dirname(Path.dirname(endpoint.path)), Os.tmpdir())
        assert.isBelow(Buffer.byteLength(endpoint.path), 100)
        assert.strictEqual(JSON.parse(Fs.readFileSync(Path.join(dir, LOCK_FILE), "utf8")).socketPath, endpoint.path)
        assert.deepStrictEqual(yield* Effect.scoped(acquireEmbedded(dir)), { path: endpoint.path, owner: false })
        const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
        assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }])
        return endpoint.path
      }).pipe(Effect.scoped)
      assert.isFalse(exists(Path.dirname(socketPath)))
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("another OS process writes through the owner's socket", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const endpoint = yield* acquireEmbedded(dir)
      assert.isTrue(endpoint.owner)
      const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
      yield* sql`CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)`
      yield* sql`INSERT INTO notes VALUES (1, 'by the owner')`

      const child = yield* runProcess([Path.join(import.meta.dirname, "embedded-child.ts"), dir, "2"])
      assert.strictEqual(child.code, 0, child.stderr)
      assert.deepStrictEqual(JSON.parse(child.stdout), { owner: false, path: endpoint.path, count: 2 })

      const rows = yield* sql<{ id: number; body: string }>`SELECT id, body FROM notes ORDER BY id`
      assert.strictEqual(rows.length, 2)
      assert.match(rows[1]!.body, /^written by process \d+$/)
      assert.notStrictEqual(rows[1]!.body, `written by process ${process.pid}`)
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("a connection that vanishes mid-transaction or with prepared statements leaves nothing behind", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const endpoint = yield* acquireEmbedded(dir)
      const owner = yield* PgClient.makeClient({ ...embeddedClientConfig(endpoint.path), prepare: false })
      yield* owner`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
      yield* owner`INSERT INTO counter VALUES (1, 0)`

      // a raw client opens a transaction, updates, and its socket is destroyed
      const raw = yield* Effect.scoped(
        Effect.gen(function* () {
          const socket = yield* connectRaw(endpoint.path)
          const afterStartup = yield* exchange(socket, startupMessage())
          const afterUpdate = yield* exchange(socket, frame("Q", "BEGIN; UPDATE counter SET n = 99 WHERE id = 1\0"))
          return { afterStartup, afterUpdate }
        })
      )
      assert.deepStrictEqual(raw, { afterStartup: "I", afterUpdate: "T" })
      assert.deepStrictEqual(yield* owner`SELECT n FROM counter WHERE id = 1`, [{ n: 0 }])

      // COMMIT pipelined with Terminate, socket closed at once: the COMMIT still runs
      yield* Effect.scoped(
        Effect.gen(function* () {
          const socket = yield* connectRaw(endpoint.path)
          yield* exchange(socket, startupMessage())
          assert.strictEqual(yield* exchange(socket, frame("Q", "BEGIN; UPDATE counter SET n = 7 WHERE id = 1\0")), "T")
          socket.end(Buffer.concat([frame("Q", "COMMIT\0"), frame("X", "")]))
        })
      )
      assert.deepStrictEqual(yield* owner`SELECT n FROM counter WHERE id = 1`, [{ n: 7 }])
      yield* owner`UPDATE counter SET n = 0 WHERE id = 1`

      // a client with named prepared statements goes away
      yield* Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
          yield* sql`SELECT n FROM counter WHERE id = ${1}`
          yield* sql`UPDATE counter SET n = n + 1 WHERE id = ${1}`
          const named = yield* sql<{ c: number }>`SELECT count(*)::int AS c FROM pg_prepared_statements`
          assert.isAtLeast(named[0]!.c, 2)
        })
      )
      // its close is handled when the server reads it; poll a bounded number of times
      let remaining = -1
      for (let attempt = 0; attempt < 100 && remaining !== 0; attempt++) {
        const rows = yield* owner<{ c: number }>`SELECT count(*)::int AS c FROM pg_prepared_statements`
        remaining = rows[0]!.c
      }
      assert.strictEqual(remaining, 0)
      assert.deepStrictEqual(yield* owner`SELECT n FROM counter WHERE id = 1`, [{ n: 1 }])
    }).pipe(Effect.provide(Reactivity.layer))
  )

  it.effect("text search configurations and pg_trgm through the socket", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const endpoint = yield* acquireEmbedded(dir)
      const sql = yield* PgClient.makeClient(embeddedClientConfig(endpoint.path))
      const configs = yield* sql<{ cfgname: string }>`SELECT cfgname FROM pg_ts_config`
      const names = configs.map((row) => row.cfgname)
      for (const name of ["english", "russian", "armenian", "simple"]) assert.include(names, name)
      yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
      const [similarity] = yield* sql<{ s: number }>`SELECT similarity('строительство', 'строительства') AS s`
      assert.isAbove(similarity!.s, 0.5)
      const [vectors] = yield* sql<{ hy: string; ru: string }>`
        SELECT to_tsvector('armenian', 'գնումներ')::text AS hy,
          to_tsvector('russian', 'Moscow строительство')::text AS ru`
      // the Snowball Armenian stemmer leaves this short plural alone (no R2 region)
      assert.strictEqual(vectors!.hy, "'գնումներ':1")
      assert.strictEqual(vectors!.ru, "'moscow':1 'строительств':2")
    }).pipe(Effect.provide(Reactivity.layer))
  )
})
