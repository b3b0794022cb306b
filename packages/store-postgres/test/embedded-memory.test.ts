import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { backupEmbedded, layerEmbedded, restoreEmbedded, SOCKET_NAME } from "../src/embedded/EmbeddedPostgres.ts"
import { EmbeddedMemoryRelease } from "../src/embedded/ServePGlite.ts"
import { exchange, rawSession, reply, simpleQuery, tempDir } from "./embedded-wire.ts"

/** A statement that makes PGlite's memory grow by about 100 MB: a string of 50,000,000 characters, built in steps. */
const hungry = "SELECT length(string_agg(repeat('x', 1000), '')) FROM generate_series(1, 50000)"

/** Looks every 50 ms, gives up a wait after 100 ms: a transaction of a second sees the owner give up several times. */
const eager = { every: Duration.millis(50), slack: 32 * 1024 * 1024, wait: Duration.millis(100) }

// `it.live`: the owner looks at PGlite's memory on the real clock.
describe("embedded PGlite gives back its memory", () => {
  it.live("grown past the slack, PGlite is reopened once no transaction holds it, and clients go on", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = Path.join(dir, SOCKET_NAME)
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
        yield* sql`INSERT INTO counter VALUES (1, 0)`
        const idle = yield* rawSession(path)
        const holder = yield* rawSession(path)
        // The memory grows inside a transaction: the owner may not reopen PGlite before it ends.
        assert.strictEqual(yield* exchange(holder, simpleQuery(`BEGIN; ${hungry}; UPDATE counter SET n = n + 1`)), "T")
        yield* Effect.sleep("1 second")
        assert.strictEqual(yield* exchange(holder, simpleQuery("UPDATE counter SET n = n + 1; COMMIT")), "I")

        const ended = yield* reply(idle)
        assert.deepStrictEqual(
          ended.errors.map((e) => [e.severity, e.code]),
          [["FATAL", "57P01"]]
        )
        assert.match(ended.errors[0]!.message, /reopening to give back the memory it grew to \(\d+ MB when opened/u)
        assert.isTrue(ended.closed)
        // The transaction committed whole; the pooled client reconnects and goes on.
        assert.deepStrictEqual(yield* sql`SELECT n FROM counter`, [{ n: 2 }])
        yield* sql`UPDATE counter SET n = n + 1`
        assert.deepStrictEqual(yield* sql`SELECT n FROM counter`, [{ n: 3 }])
      }).pipe(Effect.provide(layerEmbedded(dir)))
    }).pipe(Effect.provideService(EmbeddedMemoryRelease, eager), Effect.provide(Reactivity.layer))
  )

  it.live("PGlite is not reopened while its memory stays within the slack", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = Path.join(dir, SOCKET_NAME)
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const idle = yield* rawSession(path)
        yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
        yield* sql`INSERT INTO notes SELECT generate_series(1, 1000)`
        yield* Effect.sleep("500 millis")
        // Still the same session: a reopened PGlite would have ended it with 57P01.
        const answer = yield* reply(idle, simpleQuery("SELECT count(*) FROM notes"))
        assert.deepStrictEqual(answer.errors, [])
        assert.strictEqual(answer.status, "I")
      }).pipe(Effect.provide(layerEmbedded(dir)))
    }).pipe(
      Effect.provideService(EmbeddedMemoryRelease, { ...eager, slack: 256 * 1024 * 1024 }),
      Effect.provide(Reactivity.layer)
    )
  )
  it.live("a backup asked while the owner waits to reopen PGlite is refused with 57P01, asks again and is made", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = Path.join(dir, SOCKET_NAME)
      const file = Path.join(dir, "backup.tar.gz")
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id int PRIMARY KEY)`
        const holder = yield* rawSession(path)
        assert.strictEqual(yield* exchange(holder, simpleQuery(`BEGIN; ${hungry}; INSERT INTO notes VALUES (1)`)), "T")
        // The owner now waits (up to 10 s) for the session to be idle, and gives nobody a turn meanwhile.
        yield* Effect.sleep("300 millis")
        const backup = yield* Effect.forkChild(backupEmbedded(dir, file))
        yield* Effect.sleep("300 millis")
        assert.strictEqual(yield* exchange(holder, simpleQuery("COMMIT")), "I")
        // The waiting backup request was ended with 57P01 when PGlite was detached; asked again, it was made.
        assert.isAbove((yield* Fiber.join(backup)).bytes, 0)
      }).pipe(Effect.provide(layerEmbedded(dir)))
      const copy = Path.join(dir, "copy")
      yield* restoreEmbedded(copy, file, { force: false })
      const rows = yield* Effect.gen(function* () {
        return yield* (yield* SqlClient.SqlClient)<{ id: number }>`SELECT id FROM notes`
      }).pipe(Effect.provide(layerEmbedded(copy)))
      assert.deepStrictEqual(rows, [{ id: 1 }])
      assert.isFalse(Fs.existsSync(`${file}.partial`))
    }).pipe(
      Effect.provideService(EmbeddedMemoryRelease, { ...eager, wait: Duration.seconds(10) }),
      Effect.provide(Reactivity.layer)
    )
  )
})
